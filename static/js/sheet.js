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
 *   after the writes queued before it (issue #20).
 * - The − / + steppers change a bill count and fire the events htmx listens to, so live
 *   validation (hx-post to the validate endpoint) runs after every tap.
 */
(function () {
  "use strict";

  var root = document.querySelector("[data-sheet]");
  if (!root) return;
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
  var SKIP = /^(csrfmiddlewaretoken|version|submission_key|version_override|initials_\d+)$/;
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

  function revalidate() {
    if (window.htmx) window.htmx.trigger(form, "change");
  }

  function toggleLeaveSign() {
    form.querySelectorAll("[data-leave-sign]").forEach(function (block) {
      var box = form.elements.namedItem("bankrupt_" + block.dataset.leaveSign);
      block.hidden = !(box && box.checked);
    });
  }

  function lockSubmit() {
    var button = document.getElementById("sheet-submit");
    if (button && state.pending) button.disabled = true;
  }

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
    lockSubmit();
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

  document.addEventListener("htmx:afterSwap", lockSubmit);
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
  if (!state.pending) keepLocally();
})();
