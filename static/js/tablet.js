/* The banker's tablet through a Wi-Fi outage. On the table's clock page, the
 * bankruptcy form and the score sheet (templates/banker/_tablet.html).
 *
 * - Registers the service worker (/bank/sw.js, static/js/tablet-sw.js), which keeps these
 *   pages and their files, and offers to install the pages as an app (the manifest).
 * - Keeps every write the banker makes while the network is gone (last turn, game over, a
 *   bankruptcy or its undoing, the sheet, each signature) in a queue in IndexedDB, in
 *   order, each under its own idempotency key; sends them one by one, in that order, when
 *   the network returns. The server applies a key once (tournament/idempotency.py), so a
 *   write sent again after a lost answer is not applied twice. The queue survives a
 *   sleeping tablet and a closed browser. While the queue holds anything, new writes join
 *   it, so the order is kept; with the network up and nothing waiting, forms post as they
 *   always did (with a key of their own).
 * - Shows it all: offline since when, the clock running on from the last synchronisation,
 *   what is waiting and what went through (or was refused, and why).
 * - Reports a heartbeat to the server while online, with the queue's length, so the judges
 *   see a tablet that has gone quiet.
 *
 * static/js/sheet.js hands its submission to this queue (window.BoardwalkTablet.enqueue).
 */
(function () {
  "use strict";

  var config = document.getElementById("tablet-config");
  if (!config) return;
  var cfg = Object.assign({}, config.dataset);
  // The table's other pages, beside its clock page (their routes: bank/tables/<pk>/...).
  cfg.sheetPage = cfg.tablePage + "sheet/";
  cfg.bankruptcyPage = cfg.tablePage + "bankruptcy/";
  cfg.rulesPage = cfg.tablePage + "rules/";
  var csrfInput = config.querySelector("input[name=csrfmiddlewaretoken]");
  var csrf = csrfInput ? csrfInput.value : "";
  var labels = {};
  Object.keys(cfg).forEach(function (name) {
    if (name.indexOf("label") === 0) {
      labels[name.charAt(5).toLowerCase() + name.slice(6)] = cfg[name];
    }
  });

  var DB_NAME = "boardwalk-tablet";
  var STORE = "actions";
  var OFFLINE_KEY = "boardwalk.tablet.offlineSince";
  var SYNC_KEY = "boardwalk.tablet.lastSync";
  var DEVICE_KEY = "boardwalk.tablet.device";
  var BEAT_MS = 15000;
  var KEEP_AFTER_MS = 1500;
  var RETRY_MS = [1000, 2000, 4000, 8000, 15000];
  var KEEP_FINISHED = 30;
  var WRITES = /\/bank\/tables\/\d+\/(last-turn|game-over|bankruptcy|bankruptcy\/undo|reopen|sheet\/sign|judge)\/$/;
  var KINDS = {
    "last-turn": "lastTurn",
    "game-over": "gameOver",
    bankruptcy: "bankruptcy",
    "bankruptcy/undo": "undo",
    reopen: "reopen",
    "sheet/sign": "signature",
    judge: "judge",
  };

  // --- Small helpers ---------------------------------------------------------------------

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function read(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  function write(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch (e) {}
  }

  function device() {
    var id = read(DEVICE_KEY);
    if (!id) {
      id = uuid();
      write(DEVICE_KEY, id);
    }
    return id;
  }

  function clockTime(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang || [], {
      hour: "2-digit",
      minute: "2-digit",
    });
  }

  function fill(text, value) {
    return (text || "").replace("%s", value);
  }

  function make(tag, className, text) {
    var element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // --- Online or not ----------------------------------------------------------------------

  function offlineSince() {
    var value = Number(read(OFFLINE_KEY));
    return value > 0 ? value : null;
  }

  function wentOffline() {
    if (!offlineSince()) write(OFFLINE_KEY, String(Date.now()));
    clockSync().then(render);
  }

  // When the clock last heard the server: the state the service worker kept.
  var clockSynced = null;
  function clockSync() {
    var clock = document.querySelector("[data-clock][data-state-url]");
    if (!clock || !window.caches) return Promise.resolve();
    var url = new URL(clock.dataset.stateUrl, window.location.href).href;
    return window.caches
      .open("boardwalk-clock-state")
      .then(function (cache) {
        return cache.match(url);
      })
      .then(function (hit) {
        return hit ? hit.json() : null;
      })
      .then(function (data) {
        if (data && data.kept_at_ms) clockSynced = data.kept_at_ms;
      })
      .catch(function () {});
  }

  function heardFromServer() {
    write(SYNC_KEY, String(Date.now()));
    if (offlineSince()) {
      write(OFFLINE_KEY, null);
      render();
    }
  }

  function isOffline() {
    return !navigator.onLine || offlineSince() !== null;
  }

  // --- The queue in IndexedDB -------------------------------------------------------------

  var dbPromise = null;
  function db() {
    if (dbPromise) return dbPromise;
    dbPromise = new Promise(function (resolve, reject) {
      var request = window.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("key", "key", { unique: true });
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
    });
    return dbPromise;
  }

  function tx(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var transaction = database.transaction(STORE, mode);
        var store = transaction.objectStore(STORE);
        var result;
        work(store, function (value) {
          result = value;
        });
        transaction.oncomplete = function () {
          resolve(result);
        };
        transaction.onerror = function () {
          reject(transaction.error);
        };
        transaction.onabort = function () {
          reject(transaction.error);
        };
      });
    });
  }

  function all() {
    return tx("readonly", function (store, done) {
      var request = store.getAll();
      request.onsuccess = function () {
        done(request.result || []);
      };
    });
  }

  function byKey(key) {
    return tx("readonly", function (store, done) {
      var request = store.index("key").get(key);
      request.onsuccess = function () {
        done(request.result || null);
      };
    });
  }

  function put(entry) {
    return tx("readwrite", function (store, done) {
      var request = store.put(entry);
      request.onsuccess = function () {
        done(request.result);
      };
    });
  }

  function trim() {
    return all().then(function (entries) {
      var finished = entries.filter(function (e) {
        return e.state !== "waiting";
      });
      var extra = finished.slice(0, Math.max(finished.length - KEEP_FINISHED, 0));
      if (!extra.length) return;
      return tx("readwrite", function (store) {
        extra.forEach(function (e) {
          store.delete(e.id);
        });
      });
    });
  }

  var waiting = 0;
  var waiters = {};
  var retriers = {};

  function enqueue(action) {
    var key = action.key || uuid();
    var answer = new Promise(function (resolve) {
      (waiters[key] = waiters[key] || []).push(resolve);
    });
    if (action.onRetry) retriers[key] = action.onRetry;
    answer.stored = byKey(key)
      .then(function (found) {
        if (found && found.state !== "waiting") {
          settle(found);
          return;
        }
        if (found) return;
        return put({
          key: key,
          table: cfg.table,
          url: action.url,
          body: action.body,
          kind: action.kind,
          label: action.label || labels[action.kind] || action.kind,
          created: Date.now(),
          state: "waiting",
          answer: null,
          messages: [],
        });
      })
      .then(function () {
        refresh();
        run();
      });
    return answer;
  }

  function settle(entry) {
    (waiters[entry.key] || []).forEach(function (resolve) {
      resolve(entry.answer || { status: entry.state, messages: entry.messages });
    });
    delete waiters[entry.key];
    delete retriers[entry.key];
  }

  // --- Sending, in order -------------------------------------------------------------------

  var running = false;
  var attempt = 0;
  var retryTimer = null;
  var finishedHere = [];

  function errorsIn(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var nodes = doc.querySelectorAll(".form-errors li, .form-errors p, .errorlist li, .message-error");
    var texts = Array.prototype.map.call(nodes, function (node) {
      return node.textContent.trim();
    });
    return texts.filter(function (text, index) {
      return text && texts.indexOf(text) === index;
    });
  }

  function sendOne(entry) {
    return window
      .fetch(entry.url, {
        method: "POST",
        body: entry.body,
        credentials: "same-origin",
        headers: {
          Accept: "application/json",
          "Content-Type": "application/x-www-form-urlencoded",
          "Idempotency-Key": entry.key,
        },
      })
      .then(function (response) {
        if (response.status >= 500) throw new Error("server " + response.status);
        if (response.redirected && /\/accounts\/login\//.test(response.url)) {
          throw new Error("login");
        }
        var type = response.headers.get("Content-Type") || "";
        if (type.indexOf("application/json") !== -1) {
          return response.json().then(function (answer) {
            var ok = ["done", "submitted", "saved", "ok"].indexOf(answer.status) !== -1;
            var messages = answer.messages || [];
            if (answer.status === "conflict") messages = [labels.conflict];
            return { state: ok ? "done" : "refused", answer: answer, messages: messages };
          });
        }
        return response.text().then(function (html) {
          var messages = response.ok ? [] : errorsIn(html);
          if (!response.ok && !messages.length) messages = [fill(labels.status, response.status)];
          return { state: response.ok ? "done" : "refused", answer: null, messages: messages };
        });
      });
  }

  function firstWaiting() {
    return all().then(function (entries) {
      var open = entries.filter(function (e) {
        return e.state === "waiting";
      });
      waiting = open.length;
      return open[0] || null;
    });
  }

  function step() {
    return firstWaiting().then(function (entry) {
      if (!entry) return "empty";
      return sendOne(entry).then(
        function (outcome) {
          heardFromServer();
          attempt = 0;
          entry.state = outcome.state;
          entry.answer = outcome.answer;
          entry.messages = outcome.messages;
          entry.finished = Date.now();
          return put(entry).then(function () {
            finishedHere.push(entry);
            settle(entry);
            refresh();
            return step();
          });
        },
        function () {
          wentOffline();
          var retry = retriers[entry.key];
          if (retry) retry();
          return "stopped";
        }
      );
    });
  }

  function run() {
    if (running) return Promise.resolve();
    running = true;
    window.clearTimeout(retryTimer);
    var work = function () {
      return step();
    };
    var locked = navigator.locks
      ? navigator.locks.request("boardwalk-tablet-queue", work)
      : work();
    return Promise.resolve(locked)
      .then(function (how) {
        running = false;
        if (how === "stopped") {
          retryTimer = window.setTimeout(run, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
          attempt += 1;
        } else {
          trim();
          afterDrain();
        }
        refresh();
      })
      .catch(function () {
        running = false;
      });
  }

  // Writes that change the page (the clock's buttons, bankruptcies, signatures) show their
  // outcome by the page coming again from the server; the sheet's own page (sheet.js)
  // answers its submission itself and keeps what is typed.
  function afterDrain() {
    var changed = finishedHere.some(function (e) {
      return e.kind !== "sheet";
    });
    finishedHere = [];
    if (changed && !document.getElementById("sheet-form")) {
      window.setTimeout(function () {
        window.location.reload();
      }, 600);
    }
  }

  // --- Forms: queued when offline, or when something is already waiting ---------------------

  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented) return;
    var form = event.target;
    var submitter = event.submitter || null;
    var action = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || "";
    var url = new URL(action, window.location.href);
    var match = WRITES.exec(url.pathname);
    if (!match || (form.method || "").toLowerCase() !== "post") return;
    if (!isOffline() && waiting === 0) {
      // Online, nothing waiting: the ordinary post, under a key, so a resubmission is safe.
      if (!form.querySelector("input[name=idempotency_key]")) {
        var field = make("input");
        field.type = "hidden";
        field.name = "idempotency_key";
        field.value = uuid();
        form.appendChild(field);
      }
      return;
    }
    event.preventDefault();
    var data = submitter ? new FormData(form, submitter) : new FormData(form);
    data.delete("idempotency_key");
    var body = new URLSearchParams(data).toString();
    var kind = KINDS[match[1]];
    var label = describe(kind, form, submitter);
    var answer = enqueue({ url: url.pathname, body: body, kind: kind, label: label });
    queuedHere(kind, form, answer.stored);
  });

  function describe(kind, form, submitter) {
    var detail = "";
    if (kind === "bankruptcy") {
      var chosen = form.querySelector("input[name=player]:checked");
      var label = chosen && chosen.closest("label");
      detail = label ? label.textContent.trim() : "";
    } else if (kind === "signature" && submitter) {
      detail = submitter.textContent.trim();
    }
    return (labels[kind] || kind) + (detail ? " · " + detail : "");
  }

  function queuedHere(kind, form, stored) {
    if (kind === "bankruptcy") {
      // Back to the table's page once the queue has it (leaving sooner could lose it).
      stored.then(function () {
        window.location.assign(cfg.tablePage);
      });
      return;
    }
    Array.prototype.forEach.call(form.elements, function (element) {
      element.disabled = true;
    });
    var note = make("p", "tablet-queued-note", labels.queued);
    form.appendChild(note);
    if (kind === "gameOver") gameOverQueued = true;
    render();
  }

  // --- The panel: offline since when, what waits, what went through -------------------------

  var panel = null;
  var gameOverQueued = false;
  var entriesCache = [];
  var installPrompt = null;

  function refresh() {
    return all()
      .then(function (entries) {
        entriesCache = entries;
        waiting = entries.filter(function (e) {
          return e.state === "waiting";
        }).length;
        gameOverQueued =
          gameOverQueued ||
          entries.some(function (e) {
            return e.kind === "gameOver" && e.table === cfg.table && e.state !== "refused";
          });
        render();
      })
      .catch(function () {});
  }

  function entryLine(entry) {
    var item = make("li", "tablet-entry");
    item.dataset.state = entry.state;
    item.dataset.kind = entry.kind;
    item.appendChild(make("span", "tablet-entry-label", entry.label || labels[entry.kind] || entry.kind));
    var when = entry.state === "waiting" ? entry.created : entry.finished;
    item.appendChild(make("span", "tablet-entry-time", clockTime(when)));
    if (entry.state !== "waiting") {
      var result = entry.state === "done" ? labels.done : labels.refused;
      item.appendChild(make("span", "tablet-entry-result", result));
    }
    if (entry.state === "refused" && entry.messages && entry.messages.length) {
      item.appendChild(make("span", "tablet-entry-why", entry.messages.join(" ")));
    }
    return item;
  }

  function section(title, entries, name) {
    var box = make("div", "tablet-list");
    box.dataset.tabletList = name;
    box.appendChild(make("h2", "tablet-list-title", fill(title, entries.length)));
    var list = make("ol");
    entries.forEach(function (entry) {
      list.appendChild(entryLine(entry));
    });
    box.appendChild(list);
    return box;
  }

  function render() {
    if (!panel) return;
    var since = offlineSince();
    var offline = !navigator.onLine || since !== null;
    var open = entriesCache.filter(function (e) {
      return e.state === "waiting";
    });
    var finished = entriesCache
      .filter(function (e) {
        return e.state !== "waiting" && e.table === cfg.table;
      })
      .slice(-8)
      .reverse();
    panel.replaceChildren();
    panel.dataset.state = offline ? "offline" : "online";
    panel.dataset.waiting = String(open.length);
    if (offline) {
      var state = make("p", "tablet-state");
      state.appendChild(make("strong", "", fill(labels.offlineSince, clockTime(since || Date.now()))));
      state.appendChild(document.createTextNode(" " + labels.keeping));
      panel.appendChild(state);
      var lastSync = Math.max(Number(read(SYNC_KEY)) || 0, clockSynced || 0);
      if (document.querySelector("[data-clock]") && lastSync) {
        panel.appendChild(make("p", "tablet-clock-note", fill(labels.clockOffline, clockTime(lastSync))));
      }
    }
    if (open.length) panel.appendChild(section(labels.waitingTitle, open, "waiting"));
    if (finished.length) panel.appendChild(section(labels.doneTitle, finished, "done"));
    if (gameOverQueued && !document.getElementById("sheet-form") && !document.querySelector("[data-sheet]")) {
      var link = make("a", "button", labels.toSheet);
      link.href = cfg.sheetPage;
      link.dataset.tabletToSheet = "";
      panel.appendChild(make("p")).appendChild(link);
    }
    if (installPrompt) {
      var install = make("button", "button button-secondary button-small", labels.install);
      install.type = "button";
      install.addEventListener("click", function () {
        installPrompt.prompt();
        installPrompt = null;
        render();
      });
      panel.appendChild(install);
    }
    panel.hidden = !panel.children.length;
    rulesLater(offline);
  }

  // --- The sheet offline: carry on entering, the rules check comes later ----------------------

  var sheetForm = document.getElementById("sheet-form");
  var rulesNote = null;

  function rulesLater(offline) {
    if (!sheetForm) return;
    if (offline) {
      if (!rulesNote) {
        rulesNote = make("p", "tablet-rules-later", labels.rulesLater);
        rulesNote.setAttribute("role", "status");
        rulesNote.dataset.tabletRulesLater = "";
        var bar = sheetForm.querySelector(".sheet-bar") || sheetForm;
        bar.insertBefore(rulesNote, bar.firstChild);
      }
    } else if (rulesNote) {
      rulesNote.remove();
      rulesNote = null;
    }
    // Whether the sheet may be submitted now is sheet.js's to say (the server's rule):
    // offline, without the engine's verdict, it may still go into the queue, to be checked
    // on arrival, once the game is over (or its game over is queued here) and something
    // is entered.
    if (window.BoardwalkSheet) window.BoardwalkSheet.refresh();
  }

  document.addEventListener("htmx:sendError", function () {
    wentOffline();
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (isOffline()) rulesLater(true);
  });

  // --- Heartbeat ----------------------------------------------------------------------------

  function beat() {
    if (!navigator.onLine || !cfg.heartbeat || !csrf) return Promise.resolve();
    var body = new URLSearchParams();
    body.append("device", device());
    body.append("queued", String(waiting));
    var since = offlineSince();
    if (since) body.append("offline_since", new Date(since).toISOString());
    return window
      .fetch(cfg.heartbeat, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrf },
      })
      .then(function (response) {
        if (response.status < 500) heardFromServer();
        if (waiting) run();
      })
      .catch(function () {
        wentOffline();
      });
  }

  // --- Start ----------------------------------------------------------------------------------

  function start() {
    panel = make("aside", "tablet-panel");
    panel.id = "tablet-panel";
    panel.setAttribute("aria-live", "polite");
    panel.hidden = true;
    var main = document.querySelector("main") || document.body;
    var messages = main.querySelector(".messages");
    main.insertBefore(panel, messages ? messages.nextSibling : main.firstChild);
    if (!navigator.onLine) wentOffline();

    var link = document.createElement("link");
    link.rel = "manifest";
    link.href = cfg.manifest;
    document.head.appendChild(link);
    window.addEventListener("beforeinstallprompt", function (event) {
      event.preventDefault();
      installPrompt = event;
      render();
    });

    // A moment after the page has settled, so it never competes with the page itself.
    window.setTimeout(installWorker, KEEP_AFTER_MS);

    window.addEventListener("offline", wentOffline);
    window.addEventListener("online", function () {
      beat().then(run);
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") beat().then(run);
    });
    window.setInterval(function () {
      if (document.visibilityState === "visible") beat();
    }, BEAT_MS);
    // The first heartbeat comes with the interval, unless there is something to catch up.
    refresh().then(function () {
      if (navigator.onLine && (waiting || offlineSince())) beat().then(run);
    });
  }

  function installWorker() {
    if ("serviceWorker" in navigator && cfg.sw) {
      navigator.serviceWorker
        .register(cfg.sw, { scope: cfg.scope })
        .then(function () {
          return navigator.serviceWorker.ready;
        })
        .then(function (registration) {
          var files = Array.prototype.map.call(
            document.querySelectorAll("script[src], link[rel=stylesheet][href]"),
            function (element) {
              return element.src || element.href;
            }
          );
          var pages = [cfg.tablePage, cfg.sheetPage, cfg.bankruptcyPage, cfg.rulesPage, window.location.href];
          var clock = document.querySelector("[data-clock][data-state-url]");
          var state = clock ? clock.dataset.stateUrl : null;
          if (registration.active) {
            registration.active.postMessage({ type: "keep", pages: pages, files: files, state: state });
          }
        })
        .catch(function () {});
    }
  }

  // Send what is waiting now (signing out asks, static/js/logout.js); settles when the
  // queue has been tried once, sent or not.
  // Tried even if the last send failed: the network may be back before the next retry.
  function flush() {
    if (!navigator.onLine) return Promise.resolve();
    window.clearTimeout(retryTimer);
    if (!running) return run();
    return new Promise(function (resolve) {
      var check = function () {
        if (running) window.setTimeout(check, 200);
        else resolve();
      };
      check();
    });
  }

  window.BoardwalkTablet = {
    enqueue: enqueue,
    flush: flush,
    labels: labels,
    isOffline: isOffline,
    gameOverQueued: function () {
      return gameOverQueued;
    },
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
