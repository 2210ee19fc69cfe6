// The registration import page: a paste larger than the server accepts is refused here,
// before anything is sent, so the text stays in the box (the server would answer with an
// error page and the text would be gone). The limit comes from the textarea's
// data-max-bytes, the message from the form's data-too-large (both set by the server).
(function () {
  "use strict";

  function utf8Bytes(text) {
    return new TextEncoder().encode(text).length;
  }

  function guard(form) {
    var box = form.querySelector("textarea[data-max-bytes]");
    var alert = form.querySelector("[data-import-refused]");
    if (!box || !alert) {
      return;
    }
    var limit = parseInt(box.getAttribute("data-max-bytes"), 10);
    form.addEventListener("submit", function (event) {
      var fileChosen = form.querySelector("input[type=file]");
      if (fileChosen && fileChosen.files && fileChosen.files.length) {
        return; // a file is checked by the server, which keeps nothing typed to lose
      }
      if (utf8Bytes(box.value) > limit) {
        event.preventDefault();
        alert.textContent = form.getAttribute("data-too-large");
        alert.hidden = false;
        box.focus();
      } else {
        alert.hidden = true;
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-import-form]").forEach(guard);
  });
})();
