/* Signing out forgets what this browser kept for the tablet offline (static/js/tablet.js,
 * static/js/tablet-sw.js): the table's pages and the clock's state in the Cache API, the
 * queue of banker actions in IndexedDB, and the tablet's own notes in localStorage. The
 * next person at a shared tablet then finds nothing of the last banker's offline.
 *
 * Actions still waiting are sent first (window.BoardwalkTablet.flush, on a table's page);
 * any that could not be sent are only dropped if the banker says so. The server's answer
 * to the sign-out also asks the browser to clear the site's storage (Clear-Site-Data),
 * which covers a browser without this script, over HTTPS.
 */
(function () {
  "use strict";

  var DB_NAME = "boardwalk-tablet";
  var STORE = "actions";
  var CACHES = ["boardwalk-pages", "boardwalk-clock-state"];
  var FLUSH_WAIT_MS = 8000;

  // The queue's entries, without creating the database where there is none.
  function withStore(mode, work) {
    return new Promise(function (resolve) {
      if (!window.indexedDB) return resolve(null);
      var request;
      try {
        request = window.indexedDB.open(DB_NAME);
      } catch (e) {
        return resolve(null);
      }
      request.onupgradeneeded = function () {
        request.transaction.abort();
      };
      request.onerror = function () {
        resolve(null);
      };
      request.onsuccess = function () {
        var database = request.result;
        if (!database.objectStoreNames.contains(STORE)) {
          database.close();
          return resolve(null);
        }
        var transaction = database.transaction(STORE, mode);
        var result = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () {
          database.close();
          resolve(result.value);
        };
        transaction.onerror = transaction.onabort = function () {
          database.close();
          resolve(null);
        };
      };
    });
  }

  function waitingCount() {
    return withStore("readonly", function (store) {
      var result = { value: 0 };
      var all = store.getAll();
      all.onsuccess = function () {
        result.value = all.result.filter(function (e) {
          return e.state === "waiting";
        }).length;
      };
      return result;
    }).then(function (count) {
      return count || 0;
    });
  }

  function flush() {
    var tablet = window.BoardwalkTablet;
    if (!tablet || !tablet.flush) return Promise.resolve();
    return Promise.race([
      tablet.flush(),
      new Promise(function (resolve) {
        window.setTimeout(resolve, FLUSH_WAIT_MS);
      }),
    ]);
  }

  function forget() {
    var work = [
      withStore("readwrite", function (store) {
        store.clear();
        return { value: true };
      }),
    ];
    if (window.caches) {
      CACHES.forEach(function (name) {
        work.push(window.caches.delete(name).catch(function () {}));
      });
    }
    try {
      Object.keys(window.localStorage)
        .filter(function (key) {
          return key.indexOf("boardwalk.tablet.") === 0;
        })
        .forEach(function (key) {
          window.localStorage.removeItem(key);
        });
    } catch (e) {
      // Storage refused (private mode): nothing was kept there.
    }
    return Promise.all(work);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("logout") || form.dataset.forgotten) return;
    event.preventDefault();
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    waitingCount()
      .then(function (count) {
        if (!count) return true;
        return flush()
          .then(waitingCount)
          .then(function (left) {
            return !left || window.confirm(form.dataset.waitingQuestion || "");
          });
      })
      .then(function (go) {
        if (!go) {
          if (button) button.disabled = false;
          return;
        }
        return forget().then(function () {
          form.dataset.forgotten = "1";
          form.submit();
        });
      })
      .catch(function () {
        form.dataset.forgotten = "1";
        form.submit();
      });
  });
})();
