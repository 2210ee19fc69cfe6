/* The banker's score sheet on the tablet: nothing typed is ever lost.
 *
 * - Every change is kept in localStorage (keyed by table), so a reload or a dead battery
 *   gives the entries back.
 * - A moment after typing stops, the draft is saved on the server too (sheet_save_draft),
 *   which is also how a second tablet on the same table notices the first one.
 * - Submitting sends the sheet with the page's submission key. If the network fails (or
 *   the server errs), the same request is sent again, with the SAME key, until the server
 *   answers; the server applies one key once, so a retry never submits twice. The pending
 *   submission is in localStorage as well, so it survives a reload and resumes. On the
 *   banker's tablet pages the submission joins the offline queue of tablet.js instead,
 *   after the writes queued before it.
 * - The − / + steppers change a bill count and fire the events htmx listens to, so live
 *   validation (hx-post to the validate endpoint) runs after every tap.
 * - The page never contradicts itself. One function, refresh(), runs on load, after
 *   entries are put back (a reload, a reconnection, a conflict) and after every input:
 *   the totals bar is added up from what is in the fields (the edition's values come in
 *   the page), and "ready to submit" follows the server's own rule
 *   (scoring/sheet_readiness.py, handed over as #sheet-rule): game over, something
 *   entered, and the rules engine's verdict on exactly these entries.
 */
(function () {
  "use strict";

  var root = document.querySelector("[data-sheet]");
  if (!root) return;
  var domReady = document.readyState === "complete";
  document.addEventListener("DOMContentLoaded", function () {
    domReady = true;
  });
  var form = document.getElementById("sheet-form");
  var table = root.dataset.table;
  var storeKey = "boardwalk.sheet." + table;
  var lastKey = root.dataset.lastSubmissionKey || "";
  // The bankruptcies the server laid on the sheet (their ids): entries kept on this tablet
  // from before one was recorded or undone are offered, not laid over them.
  var basis = root.dataset.basis || "";
  var labels = {};
  var labelsNode = document.getElementById("sheet-labels");
  if (labelsNode) labels = JSON.parse(labelsNode.textContent);
  var rule = { facts: {}, verdicts: {}, deeds: {}, money: null, bank: {} };
  var ruleNode = document.getElementById("sheet-rule");
  if (ruleNode) rule = JSON.parse(ruleNode.textContent);
  var SKIP = /^(csrfmiddlewaretoken|version|submission_key|version_override|initials_\d+)$/;

  // The server's rule (scoring/sheet_readiness.py submit_blockers), with its facts under
  // the server's names: every reason a submission would be refused, first to deal with
  // first; none means ready. ``valid`` is null while the engine has not judged these
  // entries yet.
  function sheetBlockers(facts) {
    var blockers = [];
    if (facts.locked) blockers.push("locked");
    if (facts.valid === null || facts.valid === undefined) blockers.push("unchecked");
    else if (!facts.valid) blockers.push("invalid");
    if (facts.empty) blockers.push("empty");
    if (!facts.game_over) blockers.push("game-not-over");
    return blockers;
  }
  window.BoardwalkSheet = { blockers: sheetBlockers, refresh: function () {} };
  var RETRY_MS = [1000, 2000, 4000, 8000, 15000];

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(storeKey)) || {};
    } catch (e) {
      return {};
    }
  }
  function store(state) {
    try {
      window.localStorage.setItem(storeKey, JSON.stringify(state));
    } catch (e) {
      /* Private mode or a full disk: the server draft still keeps the entries. */
    }
  }
  function forget() {
    try {
      window.localStorage.removeItem(storeKey);
    } catch (e) {}
  }

  var state = load();

  // A page without the form (signatures, locked): an answered submission is done with.
  if (!form) {
    if (!state.pending || state.pending.key === lastKey || root.dataset.stage !== "edit") {
      forget();
    }
    return;
  }

  var versionInput = form.elements.namedItem("version");
  var keyInput = form.elements.namedItem("submission_key");
  var statusNode = document.getElementById("sheet-status");
  var conflictNode = document.getElementById("sheet-conflict");
  var conflicted = !!(conflictNode && conflictNode.children.length);
  var inflight = null;
  var autosaveTimer = null;
  var retryTimer = null;
  var attempt = 0;

  function say(text, kind) {
    if (!statusNode) return;
    statusNode.textContent = text || "";
    statusNode.dataset.kind = kind || "";
  }

  function snapshot() {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || SKIP.test(el.name) || el.type === "submit" || el.type === "button") return;
      fields[el.name] = el.type === "checkbox" ? el.checked : el.value;
    });
    return fields;
  }

  function apply(fields) {
    Object.keys(fields).forEach(function (name) {
      var el = form.elements.namedItem(name);
      if (!el || el.length !== undefined && !el.tagName) return;
      if (el.type === "checkbox") el.checked = !!fields[name];
      else el.value = fields[name];
    });
    toggleLeaveSign();
    refresh();
  }

  function params(fields, extra) {
    var body = new URLSearchParams();
    body.append("csrfmiddlewaretoken", form.elements.namedItem("csrfmiddlewaretoken").value);
    Object.keys(fields).forEach(function (name) {
      var value = fields[name];
      if (value === true) body.append(name, "on");
      else if (value !== false) body.append(name, value);
    });
    Object.keys(extra).forEach(function (name) {
      body.append(name, extra[name]);
    });
    return body;
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function keepLocally() {
    state.version = Number(versionInput.value);
    state.basis = basis;
    state.fields = snapshot();
    state.savedAt = Date.now();
    store(state);
  }

  // Until DOMContentLoaded htmx has not read the form (this deferred script runs before
  // it), and a trigger would be lost: entries put back on load would then wait for the
  // next tap to be checked. This listener comes after htmx's, so htmx has read the page.
  function revalidate() {
    if (!window.htmx) return;
    if (!domReady) {
      document.addEventListener(
        "DOMContentLoaded",
        function () {
          window.htmx.trigger(form, "change");
        },
        { once: true }
      );
      return;
    }
    window.htmx.trigger(form, "change");
  }

  function toggleLeaveSign() {
    form.querySelectorAll("[data-leave-sign]").forEach(function (block) {
      var box = form.elements.namedItem("bankrupt_" + block.dataset.leaveSign);
      block.hidden = !(box && box.checked);
    });
  }

  // --- The totals bar and the verdict: from the fields, at every moment ----------------------

  function verdictValid() {
    var verdict = document.querySelector("#sheet-report .sheet-verdict");
    return verdict ? verdict.dataset.valid === "true" : null;
  }

  // The entries the engine last judged (the page's own, as the server drew it), and how.
  var checked = { fields: JSON.stringify(snapshot()), valid: verdictValid() };
  var wasOffline = false;

  // A count as the form reads it: null when empty, NaN when it is not a whole number >= 0.
  function count(el) {
    var text = (el.value || "").trim();
    if (text === "") return null;
    return /^\d+$/.test(text) ? Number(text) : NaN;
  }

  // What each player's entries add up to (gameplay/valuation.py): cash from the counted
  // total, else the bills; each deed at its price, half when mortgaged; houses at their
  // price; a hotel with the houses turned in for it. A count that cannot be read leaves
  // that player's total unknown, as on the server.
  function totals() {
    var players = {};
    var houses = 0;
    var hotels = 0;
    function player(pid) {
      if (!players[pid]) players[pid] = { counted: null, bills: null, deeds: 0, unreadable: false };
      return players[pid];
    }
    Array.prototype.forEach.call(form.elements, function (el) {
      var match = /^bills_(\d+)_(\d+)$/.exec(el.name || "");
      if (match) {
        var bills = count(el);
        if (bills === null) return player(match[1]);
        if (isNaN(bills)) player(match[1]).unreadable = true;
        else player(match[1]).bills = (player(match[1]).bills || 0) + bills * Number(match[2]);
        return;
      }
      match = /^cash_(\d+)$/.exec(el.name || "");
      if (match) {
        var cash = count(el);
        if (cash !== null && isNaN(cash)) player(match[1]).unreadable = true;
        else player(match[1]).counted = cash;
      }
    });
    Object.keys(rule.deeds).forEach(function (position) {
      var deed = rule.deeds[position];
      var owner = form.elements.namedItem("owner_" + position);
      var mortgaged = form.elements.namedItem("mortgaged_" + position);
      var buildings = form.elements.namedItem("buildings_" + position);
      var level = buildings ? buildings.value : "0";
      var built = level === "hotel" ? deed.hotel : (Number(level) || 0) * deed.house;
      if (level === "hotel") hotels += 1;
      else houses += Number(level) || 0;
      if (owner && owner.value) {
        var price = mortgaged && mortgaged.checked ? Math.floor(deed.price / 2) : deed.price;
        player(owner.value).deeds += price + built;
      }
    });
    var worths = {};
    Object.keys(players).forEach(function (pid) {
      var p = players[pid];
      var cash = p.counted !== null ? p.counted : p.bills || 0;
      worths[pid] = p.unreadable ? null : cash + p.deeds;
    });
    return { worths: worths, houses: houses, hotels: hotels };
  }

  // gameplay/money.py format_money with the page's sign, grouping, separator and pattern.
  function money(amount) {
    var spec = rule.money;
    if (!spec) return String(amount);
    var digits = String(Math.abs(Math.trunc(amount)));
    var sizes = (spec.grouping || [3]).slice();
    var groups = [];
    if (spec.separator) {
      while (digits) {
        var size = sizes.length > 1 ? sizes.shift() : sizes[0];
        if (!(size > 0)) {
          groups.push(digits);
          break;
        }
        groups.push(digits.slice(-size));
        digits = digits.slice(0, Math.max(digits.length - size, 0));
      }
      digits = groups.reverse().join(spec.separator);
    }
    return spec.pattern.replace("%(symbol)s", spec.symbol).replace("%(amount)s", digits);
  }

  function paintTotals(sums) {
    Object.keys(sums.worths).forEach(function (pid) {
      var text = sums.worths[pid] === null ? "–" : money(sums.worths[pid]);
      var bar = document.querySelector("[data-worth='" + pid + "']");
      if (bar) {
        var strong = bar.querySelector("[data-net-worth]");
        if (strong) strong.textContent = text;
        var box = form.elements.namedItem("bankrupt_" + pid);
        bar.classList.toggle("is-bankrupt", !!(box && box.checked));
      }
      var cell = document.getElementById("player-worth-" + pid);
      if (cell) cell.textContent = text;
    });
    [["houses", sums.houses], ["hotels", sums.hotels]].forEach(function (pair) {
      var node = document.querySelector("[data-supply='" + pair[0] + "']");
      var number = node && node.querySelector("[data-supply-count]");
      if (!number) return;
      number.textContent = String(pair[1]);
      node.classList.toggle("over", pair[1] > (rule.bank[pair[0]] || Infinity));
    });
  }

  // Nothing entered (scoring/sheet_readiness.py sheet_is_empty): no cash or bills other
  // than 0, nobody bankrupt, no deed with an owner.
  function nothingEntered() {
    return !Array.prototype.some.call(form.elements, function (el) {
      var name = el.name || "";
      if (/^(bills_\d+_\d+|cash_\d+)$/.test(name)) {
        var text = (el.value || "").trim();
        return text !== "" && Number(text) !== 0;
      }
      if (/^bankrupt_\d+$/.test(name)) return el.checked;
      if (/^owner_\d+$/.test(name)) return el.value !== "";
      return false;
    });
  }

  function isOffline() {
    var tablet = window.BoardwalkTablet;
    return !navigator.onLine || !!(tablet && tablet.isOffline());
  }

  function showVerdict(blockers, offline) {
    var verdict = document.querySelector("#sheet-report .sheet-verdict");
    var text = verdict && verdict.querySelector("[data-verdict-text]");
    if (!text) return;
    var first = blockers[0] || "ready";
    // "invalid" is only ever the engine's fresh verdict: its sentence (with the count of
    // problems) is the server's and stays. Offline, tablet.js says why nothing is checked.
    if (first !== "invalid" && rule.verdicts[first]) text.textContent = rule.verdicts[first];
    text.hidden = first === "unchecked" && offline;
    text.className =
      first === "ready" ? "ok" : first === "game-not-over" || first === "unchecked" ? "wait" : "bad";
    text.id = "sheet-" + first;
    verdict.dataset.verdict = first;
  }

  function refresh() {
    paintTotals(totals());
    var tablet = window.BoardwalkTablet;
    var offline = isOffline();
    var fresh = checked.fields === JSON.stringify(snapshot());
    var blockers = sheetBlockers({
      locked: !!rule.facts.locked,
      // A game over waiting in this tablet's queue is sent before the sheet.
      game_over: !!rule.facts.game_over || !!(tablet && tablet.gameOverQueued && tablet.gameOverQueued()),
      empty: nothingEntered(),
      valid: fresh ? checked.valid : null,
    });
    showVerdict(blockers, offline);
    root.dataset.blockers = blockers.join(" ");
    // Offline the engine cannot be asked: the sheet may still go into the queue, and is
    // checked when it arrives. Nothing else the server would refuse is offered.
    var allowed = !blockers.length || (offline && blockers.join() === "unchecked");
    var button = document.getElementById("sheet-submit");
    if (button) {
      button.disabled = !allowed || !!state.pending;
      if (button.disabled && blockers.length) button.setAttribute("aria-describedby", "sheet-" + blockers[0]);
      else button.removeAttribute("aria-describedby");
    }
    // Back online with entries the engine has not seen: ask it now (the check's own
    // "change" event comes back here, so the state is updated first).
    var reconnected = wasOffline && !offline;
    wasOffline = offline;
    if (reconnected && !fresh) revalidate();
  }
  window.BoardwalkSheet.refresh = refresh;
  window.BoardwalkSheet.money = money;

  // --- Steppers and small conveniences -----------------------------------------------------

  form.addEventListener("click", function (event) {
    var step = event.target.closest("[data-step]");
    if (!step) return;
    var input = step.parentNode.querySelector("input");
    var value = Math.max(0, (parseInt(input.value, 10) || 0) + Number(step.dataset.step));
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // Quick entry of owners: choose a player once, then one tap per title deed they hold.
  // The owner lists stay the record (and work without this): a tap sets the deed's list
  // and fires the same events as choosing in it, so validation and drafts follow.
  var painter = document.querySelector("[data-deed-painter]");
  var paintOwner = null;
  if (painter) {
    painter.hidden = false;
    painter.addEventListener("click", function (event) {
      var button = event.target.closest("[data-paint-owner]");
      if (!button) return;
      var choosing = button.getAttribute("aria-pressed") !== "true";
      painter.querySelectorAll("[data-paint-owner]").forEach(function (other) {
        other.setAttribute("aria-pressed", "false");
      });
      button.setAttribute("aria-pressed", choosing ? "true" : "false");
      paintOwner = choosing ? button.dataset.paintOwner : null;
      form.classList.toggle("is-painting", paintOwner !== null);
    });
    form.addEventListener("click", function (event) {
      if (paintOwner === null) return;
      var name = event.target.closest(".deed-name");
      if (!name) return;
      var select = form.querySelector("select[name=owner_" + name.parentNode.dataset.position + "]");
      if (!select) return;
      select.value = select.value === paintOwner ? "" : paintOwner;
      select.dispatchEvent(new Event("input", { bubbles: true }));
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  // Enter in a count must not send the form to the first button (a signature).
  form.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.tagName === "INPUT") event.preventDefault();
  });

  // --- Drafts: this tablet first, then the server --------------------------------------------

  function onEdit(event) {
    if (event.target.name && /^initials_/.test(event.target.name)) return;
    if (state.pending) return;
    toggleLeaveSign();
    refresh();
    keepLocally();
    window.clearTimeout(autosaveTimer);
    autosaveTimer = window.setTimeout(function () {
      saveDraft();
    }, 2500);
  }
  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);

  function post(url, body) {
    return window.fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
  }

  function saveDraft(override) {
    if (state.pending || (conflicted && override === undefined)) return Promise.resolve();
    var fields = snapshot();
    var extra = { version: versionInput.value };
    if (override !== undefined) extra.version_override = override;
    var request = post(form.dataset.draftUrl, params(fields, extra))
      .then(function (response) {
        return response.json().then(function (body) {
          if (body.status === "saved") {
            versionInput.value = body.version;
            state.version = body.version;
            state.fields = fields;
            store(state);
            if (override !== undefined) {
              conflicted = false;
              conflictNode.innerHTML = "";
            }
            say(labels.saved, "saved");
          } else if (body.status === "conflict") {
            showConflict(body);
          } else {
            say(labels.savedLocally, "local");
          }
        });
      })
      .catch(function () {
        say(labels.savedLocally, "local");
      });
    inflight = request.then(function () {
      inflight = null;
    });
    return inflight;
  }

  function showConflict(body) {
    conflicted = true;
    conflictNode.innerHTML = body.html;
    say(labels.conflict, "conflict");
    conflictNode.scrollIntoView({ block: "start" });
  }

  // --- Submitting, retried with the same key ----------------------------------------------------

  function submit() {
    var wait = inflight || Promise.resolve();
    window.clearTimeout(autosaveTimer);
    wait.then(function () {
      state.pending = {
        key: keyInput.value,
        version: versionInput.value,
        fields: snapshot(),
      };
      state.fields = state.pending.fields;
      state.version = Number(versionInput.value);
      store(state);
      attempt = 0;
      send();
    });
  }

  function send() {
    var pending = state.pending;
    if (!pending) return;
    refresh(); // the submit button stays off while the submission is pending
    say(labels.sending, "sending");
    root.dataset.submitting = "sending";
    var body = params(pending.fields, {
      version: pending.version,
      submission_key: pending.key,
      submit: "1",
    });
    var tablet = window.BoardwalkTablet;
    if (tablet) {
      // The tablet's queue (tablet.js) sends it in order after anything queued before it
      // (the game over), under the submission key, and survives the browser closing.
      if (tablet.isOffline()) say(tablet.labels.sheetQueued || labels.retrying, "queued");
      tablet
        .enqueue({
          key: pending.key,
          url: form.action,
          body: body.toString(),
          kind: "sheet",
          onRetry: function () {
            root.dataset.submitting = "retrying";
            say(labels.retrying + " " + (tablet.labels.sheetQueued || ""), "retrying");
          },
        })
        .then(answered);
      return;
    }
    post(form.action, body)
      .then(function (response) {
        if (response.status >= 500) throw new Error("server " + response.status);
        return response.json().then(function (answer) {
          answered(answer);
        });
      })
      .catch(function () {
        retryLater();
      });
  }

  function retryLater() {
    root.dataset.submitting = "retrying";
    say(labels.retrying, "retrying");
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(send, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
    attempt += 1;
  }

  window.addEventListener("online", function () {
    if (state.pending) {
      window.clearTimeout(retryTimer);
      send();
    }
  });

  function answered(answer) {
    state.pending = null;
    delete root.dataset.submitting;
    if (answer.status === "submitted") {
      forget();
      window.location.assign(answer.redirect);
      return;
    }
    store(state);
    if (answer.version !== undefined) versionInput.value = answer.version;
    if (answer.submission_key) keyInput.value = answer.submission_key;
    if (answer.status === "conflict") {
      showConflict(answer);
    } else {
      say((labels.invalid || "") + " " + (answer.messages || []).join(" "), "refused");
    }
    revalidate();
  }

  form.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (!submitter) {
      event.preventDefault();
      return;
    }
    if (submitter.name === "version_override") {
      event.preventDefault();
      saveDraft(submitter.value);
      return;
    }
    if (submitter.name === "save_draft") {
      event.preventDefault();
      window.clearTimeout(autosaveTimer);
      saveDraft();
      return;
    }
    if (submitter.id === "sheet-submit") {
      event.preventDefault();
      if (!state.pending) submit();
    }
    // A bankrupt player's signature posts the whole form the ordinary way.
  });

  // The engine's verdict belongs to the entries that were sent, not to what is in the
  // fields when it arrives: each check carries a copy of what it sent.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt === form && event.detail.xhr) {
      event.detail.xhr.boardwalkFields = JSON.stringify(snapshot());
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "sheet-report") return;
    var sent = event.detail.xhr && event.detail.xhr.boardwalkFields;
    if (sent) checked = { fields: sent, valid: verdictValid() };
    refresh();
  });
  window.addEventListener("online", refresh);
  window.addEventListener("offline", refresh);
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-take-theirs]")) forget();
    if (event.target.closest("[data-restore-local]")) {
      apply(state.orphan || {});
      delete state.orphan;
      keepLocally();
      document.getElementById("sheet-restore").hidden = true;
      revalidate();
    }
    if (event.target.closest("[data-forget-local]")) {
      delete state.orphan;
      keepLocally();
      document.getElementById("sheet-restore").hidden = true;
    }
  });

  // --- On load: give back what this tablet had ----------------------------------------------

  var serverVersion = Number(versionInput.value);
  if (state.pending) {
    if (state.pending.key === lastKey) {
      // The server applied it before the answer was lost; the page shows the outcome.
      state.pending = null;
      store(state);
    } else {
      apply(state.pending.fields);
      revalidate();
      send();
    }
  } else if (state.fields && !same(state.fields, snapshot())) {
    if (state.version === serverVersion && (state.basis || "") === basis) {
      apply(state.fields);
      revalidate();
    } else {
      // Another device saved since: offer this tablet's entries rather than impose them.
      state.orphan = state.fields;
      document.getElementById("sheet-restore").hidden = false;
    }
  }
  toggleLeaveSign();
  refresh();
  if (!state.pending) keepLocally();
})();
