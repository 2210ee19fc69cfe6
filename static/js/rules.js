/* The rules at the table (banker/table_rules.py): typing in the search box shows only
 * the paragraphs holding every word typed, and their sections; the count says how many.
 * Client-side only, so it works offline from the service worker's copy of the page. */
(function () {
  "use strict";
  var box = document.querySelector("[data-rules-search]");
  if (!box) return;
  var count = document.querySelector("[data-rules-count]");
  var sections = Array.prototype.slice.call(document.querySelectorAll("[data-rule-section]"));

  function fold(text) {
    return (text || "").toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function filter() {
    var words = fold(box.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    sections.forEach(function (section) {
      var heading = fold(section.querySelector("h2, h3").textContent);
      var any = false;
      section.querySelectorAll("[data-rule]").forEach(function (rule) {
        var text = heading + " " + fold(rule.textContent);
        var match = words.every(function (word) {
          return text.indexOf(word) !== -1;
        });
        rule.hidden = !match;
        if (match) {
          any = true;
          shown += 1;
        }
      });
      section.hidden = !any;
    });
    if (count) {
      count.textContent = words.length ? count.dataset.template.replace("%s", shown) : "";
    }
  }

  box.addEventListener("input", filter);
  filter();
})();
