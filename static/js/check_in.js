// The check-in desk: a slow search answer must never undo, on screen, a check-in that was
// shown. A search answer is stale when a check-in (or its undo) was waiting for its answer
// when the search was sent, or was answered since: the server may have read the list
// before the check-in was saved. Such an answer is dropped and the search asked again,
// now after the check-in. Searches replace each other (hx-sync on the box), so only the
// latest one is ever shown.
(function () {
  "use strict";

  var answered = 0; // check-in and undo requests that have come back
  var waiting = 0; // check-in and undo requests on their way

  function isAction(elt) {
    return elt && elt.closest && elt.closest("[data-check-in-action]");
  }

  function isSearch(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-check-in-search");
  }

  // The element that sent the request (beforeSwap's own "elt" is the swap's target).
  function sender(event) {
    var config = event.detail.requestConfig;
    return config && config.elt ? config.elt : event.detail.elt;
  }

  function actionDone(xhr) {
    if (xhr && !xhr.boardwalkDone) {
      xhr.boardwalkDone = true;
      answered += 1;
      waiting = Math.max(0, waiting - 1);
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = sender(event);
    var xhr = event.detail.xhr;
    if (isAction(elt)) {
      waiting += 1;
    } else if (isSearch(elt)) {
      xhr.boardwalkAnswered = answered;
      xhr.boardwalkWaiting = waiting;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = sender(event);
    var xhr = event.detail.xhr;
    if (isAction(elt)) {
      actionDone(xhr);
    } else if (isSearch(elt)) {
      if (xhr.boardwalkWaiting > 0 || xhr.boardwalkAnswered !== answered) {
        event.detail.shouldSwap = false; // stale: it may show someone as not checked in
        if (document.body.contains(elt)) {
          window.htmx.trigger(elt, "search");
        }
      }
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (isAction(sender(event))) {
      actionDone(event.detail.xhr);
    }
  });
})();
