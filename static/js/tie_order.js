// A tie decision's places, best first: a player chosen for one place is greyed out of the
// other places' lists, so nobody is given two places (the server refuses it too, for a
// browser without this script). Choosing a taken player again is impossible; clearing a
// place gives the player back to the others.
(function () {
  "use strict";

  function refresh(group) {
    var selects = group.querySelectorAll("select[data-place]");
    var taken = {};
    selects.forEach(function (select) {
      if (select.value) taken[select.value] = select;
    });
    selects.forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        var holder = option.value ? taken[option.value] : null;
        option.disabled = Boolean(holder && holder !== select);
      });
    });
  }

  function wire(root) {
    root.querySelectorAll("[data-tie-places]").forEach(function (group) {
      if (group.dataset.wired) return;
      group.dataset.wired = "1";
      group.addEventListener("change", function () {
        refresh(group);
      });
      refresh(group);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    wire(document);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    wire(event.target);
  });
})();
