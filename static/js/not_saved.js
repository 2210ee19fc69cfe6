// A write the database could not take (config/not_saved.py answers an htmx request with
// 503 and the Boardwalk-Not-Saved header). htmx swaps nothing on a 503, so the form stays
// as it was typed; this shows the server's message just above it, and takes the message
// away at that form's next answer. A poll (GET) that met a busy database says nothing:
// the next poll asks again.
(function () {
  "use strict";

  var HEADER = "Boardwalk-Not-Saved";

  function sender(event) {
    var config = event.detail.requestConfig;
    return config && config.elt ? config.elt : event.detail.elt;
  }

  function placeOf(elt) {
    return (elt.closest && elt.closest("form")) || elt;
  }

  function clear(place) {
    var before = place.previousElementSibling;
    if (before && before.hasAttribute("data-not-saved")) before.remove();
  }

  function messageFrom(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var given = doc.querySelector("[data-not-saved]");
    var note = document.createElement("p");
    note.className = given ? given.className : "message message-error";
    note.setAttribute("role", "alert");
    note.setAttribute("data-not-saved", "");
    note.textContent = given ? given.textContent.trim() : doc.body.textContent.trim();
    return note;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = sender(event);
    if (!elt || !document.body.contains(elt)) return;
    var xhr = event.detail.xhr;
    var place = placeOf(elt);
    if (xhr.status !== 503 || !xhr.getResponseHeader(HEADER)) {
      clear(place);
      return;
    }
    event.detail.shouldSwap = false;
    var config = event.detail.requestConfig;
    if (config && String(config.verb).toLowerCase() === "get") return;
    clear(place);
    place.parentNode.insertBefore(messageFrom(xhr.responseText), place);
  });
})();
