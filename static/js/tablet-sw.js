/* The banker tablet's service worker, served from /bank/sw.js (scope /bank/)
 * by banker/offline_views.py, which puts self.BOARDWALK = {version, precache, scope}
 * in front of this file.
 *
 * - Pages under /bank/ (the table's clock, the bankruptcy form, the score sheet): the
 *   network first, a copy kept; without a network (or after a few seconds of a network
 *   that does not answer) the copy. A table card's link (/bank/k/<key>/) is remembered as
 *   the page it led to, so the card opens the table offline too.
 * - Static files: the copy first (they change name or version with a deployment).
 * - The clock's state: the network first; without it, the last state moved on by the
 *   time that has passed since, so the countdown carries on from the last synchronisation
 *   (and says "offline": the page shows since when).
 * - Writes (POST) are the page's to queue (static/js/tablet.js), when it knows it is
 *   offline. A banker's form posted while the tablet thought it was online (a Wi-Fi that
 *   is up but reaches nothing) goes to the network from here; if that fails, it joins the
 *   same queue in IndexedDB, under the form's idempotency key, and the tablet goes back
 *   to the table's page, which lists it as waiting.
 */
"use strict";

const CONFIG = self.BOARDWALK || { version: "dev", precache: [], scope: "/bank/", static: "/static/" };
const STATIC_CACHE = "boardwalk-static-" + CONFIG.version;
const PAGE_CACHE = "boardwalk-pages";
const STATE_CACHE = "boardwalk-clock-state";
const PAGE_WAIT_MS = 4000;
const STATE_WAIT_MS = 3000;
const LINK = /\/bank\/k\/[^/]+\/$/;
const CLOCK_STATE = /\/waves\/\d+\/clock\/state\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC_CACHE)
      .then((cache) => Promise.all(CONFIG.precache.map((url) => cache.add(url).catch(() => null))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("boardwalk-static-") && name !== STATIC_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// The page asks to keep its table's other pages and the files it loaded before this worker
// ran (htmx), so they are there when the network is not.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep") return;
  const pages = (data.pages || []).map((url) => keepPage(url));
  if (data.state) {
    const url = new URL(data.state, self.location.href).href;
    pages.push(
      fetch(url, { credentials: "same-origin", cache: "no-store" })
        .then((response) => keepState(url, response))
        .catch(() => null),
    );
  }
  const files = caches.open(STATIC_CACHE).then((cache) =>
    Promise.all(
      (data.files || []).map((url) =>
        cache.match(url).then((hit) => hit || cache.add(url).catch(() => null)),
      ),
    ),
  );
  event.waitUntil(Promise.all([...pages, files]));
});

const clean = async (response) =>
  new Response(await response.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });

// Only a page not kept yet: one opened online is kept fresh by its own visit.
const keepPage = async (url) => {
  const cache = await caches.open(PAGE_CACHE);
  if (await cache.match(url)) return;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok && !response.redirected) await cache.put(url, await clean(response));
  } catch (error) {
    // Offline already: nothing to keep.
  }
};

// The network, or a rejection after ``ms`` (a Wi-Fi that hangs is as good as none).
const network = (request, ms) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    fetch(request).then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

const offlinePage = async (url) => {
  const cache = await caches.open(PAGE_CACHE);
  const hit = (await cache.match(url)) || (await cache.match(url, { ignoreSearch: true }));
  if (hit && hit.headers.get("X-Boardwalk-Link")) {
    return Response.redirect(await hit.text(), 302);
  }
  return hit || Response.error();
};

const page = async (request) => {
  const url = request.url;
  if (LINK.test(new URL(url).pathname)) {
    // Follow the link's redirect here, to remember where it leads.
    try {
      const response = await network(
        new Request(url, { credentials: "same-origin", redirect: "follow" }),
        PAGE_WAIT_MS,
      );
      if (response.ok && response.redirected) {
        const cache = await caches.open(PAGE_CACHE);
        await cache.put(url, new Response(response.url, { headers: { "X-Boardwalk-Link": "1" } }));
        await cache.put(response.url, await clean(response.clone()));
        return Response.redirect(response.url, 302);
      }
      return response;
    } catch (error) {
      return offlinePage(url);
    }
  }
  try {
    const response = await network(request, PAGE_WAIT_MS);
    if (response.ok && response.type === "basic" && !response.redirected) {
      const cache = await caches.open(PAGE_CACHE);
      await cache.put(url, await clean(response.clone()));
    }
    return response;
  } catch (error) {
    return offlinePage(url);
  }
};

const staticFile = async (request) => {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request, { ignoreSearch: false });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
};

const keepState = async (url, response) => {
  if (!response.ok) return;
  const data = await response.clone().json();
  data.kept_at_ms = Date.now();
  const cache = await caches.open(STATE_CACHE);
  await cache.put(url, new Response(JSON.stringify(data)));
};

const clockState = async (request) => {
  const cache = await caches.open(STATE_CACHE);
  try {
    const response = await network(request, STATE_WAIT_MS);
    await keepState(request.url, response);
    return response;
  } catch (error) {
    const hit = await cache.match(request.url);
    if (!hit) return Response.error();
    const data = await hit.json();
    // The state as the server would tell it now, from the last one it told: the time that
    // passed moves both the server's clock and, while running, the time left.
    const passed = Math.max(Date.now() - data.kept_at_ms, 0);
    data.synced_ms = data.server_ms;
    data.server_ms += passed;
    if (data.status === "running") data.remaining_ms = Math.max(data.remaining_ms - passed, 0);
    data.offline = true;
    return new Response(JSON.stringify(data), {
      headers: { "Content-Type": "application/json", "X-Boardwalk-Offline": "1" },
    });
  }
};

// --- A banker's form that could not reach the server: into the tablet's queue -----------

const WRITES = /\/bank\/tables\/(\d+)\/(last-turn|game-over|bankruptcy|bankruptcy\/undo|reopen|sheet\/sign|judge)\/$/;
const KINDS = {
  "last-turn": "lastTurn",
  "game-over": "gameOver",
  bankruptcy: "bankruptcy",
  "bankruptcy/undo": "undo",
  reopen: "reopen",
  "sheet/sign": "signature",
  judge: "judge",
};

// The queue's database, as static/js/tablet.js opens it.
const queueAdd = (entry) =>
  new Promise((resolve, reject) => {
    const open = indexedDB.open("boardwalk-tablet", 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore("actions", { keyPath: "id", autoIncrement: true });
      store.createIndex("key", "key", { unique: true });
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const transaction = open.result.transaction("actions", "readwrite");
      const store = transaction.objectStore("actions");
      const found = store.index("key").get(entry.key);
      found.onsuccess = () => {
        if (!found.result) store.add(entry);
      };
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    };
  });

const postOrQueue = async (request, match) => {
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (error) {
    const params = new URLSearchParams(await copy.text());
    const key = params.get("idempotency_key") || self.crypto.randomUUID();
    params.delete("idempotency_key");
    await queueAdd({
      key: key,
      table: match[1],
      url: new URL(request.url).pathname,
      body: params.toString(),
      kind: KINDS[match[2]],
      label: null,
      created: Date.now(),
      state: "waiting",
      answer: null,
      messages: [],
    });
    const back = match[2] === "sheet/sign" ? "sheet/" : "";
    return Response.redirect(`${CONFIG.scope}tables/${match[1]}/${back}`, 303);
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method === "POST" && request.mode === "navigate") {
    const match = WRITES.exec(new URL(request.url).pathname);
    if (match) event.respondWith(postOrQueue(request, match));
    return;
  }
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(staticFile(request));
  } else if (CLOCK_STATE.test(url.pathname)) {
    event.respondWith(clockState(request));
  } else if (request.mode === "navigate" && url.pathname.startsWith(CONFIG.scope)) {
    event.respondWith(page(request));
  } else if (url.pathname === CONFIG.scope + "manifest.webmanifest") {
    event.respondWith(network(request, PAGE_WAIT_MS).catch(() => offlinePage(request.url)));
  }
});
