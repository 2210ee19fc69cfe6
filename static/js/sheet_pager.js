// The players' table of the score sheet on a tablet held upright (900 px wide or less):
// when the players' columns do not fit the screen's width, one player is shown at a time with
// "< Player 3 of 6 >" above the table (the row labels stay), instead of a table that
// scrolls sideways and hides the last players and the labels. A player whose column holds
// a problem is marked in the pager, so nothing wrong hides in a column not shown.
(function () {
  "use strict";

  function playerCount(table) {
    return table.querySelectorAll("thead th.player-head").length;
  }

  function showColumn(table, index, paged) {
    table.querySelectorAll("tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, position) {
        if (position === 0) return; // the row's label
        cell.classList.toggle("pager-off", paged && position - 1 !== index);
      });
    });
    table.classList.toggle("is-paged", paged);
  }

  function problems(table) {
    return Array.prototype.map.call(table.querySelectorAll("tr.msgs-row td"), function (cell) {
      return Boolean(cell.querySelector(".sheet-msgs p"));
    });
  }

  function setUp(table) {
    var pager = document.querySelector("[data-sheet-pager]");
    var box = table.closest("[data-scroll-box]");
    if (!pager || !box || table.dataset.pager) return;
    table.dataset.pager = "1";
    var heads = table.querySelectorAll("thead th.player-head");
    var label = pager.querySelector("[data-pager-label]");
    var previous = pager.querySelector("[data-pager-previous]");
    var next = pager.querySelector("[data-pager-next]");
    var template = pager.dataset.template; // "Player %(n)s of %(count)s: %(alias)s"
    var flagged = pager.dataset.flagged; // " · needs attention"
    var current = 0;
    var paged = false;

    function render() {
      var count = playerCount(table);
      var marks = problems(table);
      label.textContent = template
        .replace("%(n)s", String(current + 1))
        .replace("%(count)s", String(count))
        .replace("%(alias)s", heads[current].textContent.trim()) + (marks[current] ? flagged : "");
      previous.disabled = current === 0;
      next.disabled = current === count - 1;
      var others = marks.filter(function (mark, index) { return mark && index !== current; }).length;
      pager.dataset.othersFlagged = String(others);
      showColumn(table, current, paged);
    }

    function layOut() {
      showColumn(table, current, false);
      // Upright only (the width sheet.css folds the bar at): held in landscape, a wide
      // table keeps every column and scrolls, as a banker there expects.
      paged =
        window.matchMedia("(max-width: 900px)").matches &&
        box.scrollWidth > box.clientWidth + 1 &&
        playerCount(table) > 1;
      pager.hidden = !paged;
      render();
    }

    previous.addEventListener("click", function () { current = Math.max(0, current - 1); render(); });
    next.addEventListener("click", function () {
      current = Math.min(playerCount(table) - 1, current + 1);
      render();
    });
    window.addEventListener("resize", layOut);
    document.addEventListener("htmx:afterSettle", render);
    layOut();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("table.sheet-players").forEach(setUp);
  });
})();
