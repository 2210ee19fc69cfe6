/* Boardwalk's official clock on a page: the hall display, a banker's tablet, the head
 * judge's controls. No build step; plain modern JavaScript.
 *
 * Nothing here counts down. Every poll of the state URL returns the clock as the server
 * sees it (status, remaining_ms at server_ms). The page measures its offset from the
 * server's time, offset = server_ms - (t0 + t1) / 2 using the quickest recent round trip,
 * and on every tick recomputes the time left from that state and the offset. A tablet
 * that slept, a reloaded page and a second server therefore all show the same time.
 *
 * Never an older state over a newer one. The page embeds the state it was drawn from
 * (<script type="application/json" id="clock-state...">), with the clock's version, one
 * more with every change; so does every card the head judge's controls bring back (htmx).
 * An answer is taken only if its version is newer, or the same version told later: a poll
 * sent before Start and answered after it is ignored, and so is an htmx answer older than
 * what the card shows. When a poll brings a newer version than the head judge's card was
 * drawn with (another official changed the clock), the card is fetched again, unless
 * someone is typing in it.
 */
(() => {
  "use strict";

  const TICK_MS = 250;
  const SAMPLES = 5;
  // An announcement stays on screen for this long after its moment.
  const SHOW_MS = 60 * 1000;
  const CHIME_KEY = "boardwalk-chime";

  const labelsElement = document.getElementById("clock-labels");
  const labels = labelsElement ? JSON.parse(labelsElement.textContent) : {};

  // Same rounding as clock.format_remaining: up to the whole second, so 00:00 is time up.
  const format = (ms) => {
    const total = ms > 0 ? Math.ceil(ms / 1000) : 0;
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
  };

  // --- Chime: a short WebAudio beep, only after someone switched it on (browsers need a tap).
  let audio = null;
  const chimeOn = () => localStorage.getItem(CHIME_KEY) === "on";
  const chime = () => {
    if (!chimeOn() || !audio) return;
    [0, 0.35].forEach((delay) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const start = audio.currentTime + delay;
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.3);
    });
  };
  const setupChimeToggle = (button) => {
    if (!window.AudioContext) return;
    const show = () => {
      button.setAttribute("aria-pressed", chimeOn() ? "true" : "false");
      button.textContent = chimeOn() ? labels.chimeOn || "Chime on" : labels.chimeOff || "Chime off";
    };
    button.hidden = false;
    show();
    button.addEventListener("click", () => {
      localStorage.setItem(CHIME_KEY, chimeOn() ? "off" : "on");
      audio = audio || new AudioContext();
      audio.resume();
      show();
      chime();
    });
    // A stored "on" still needs one tap somewhere before the browser lets it sound.
    document.addEventListener("pointerdown", () => {
      if (chimeOn()) {
        audio = audio || new AudioContext();
        audio.resume();
      }
    }, { once: true });
  };

  // The state a page or an htmx answer was drawn from, or null.
  const embeddedState = (container) => {
    const element = container.querySelector('script[type="application/json"][id^="clock-state"]');
    if (!element) return null;
    try {
      return JSON.parse(element.textContent);
    } catch (error) {
      return null;
    }
  };

  // Whether ``incoming`` may replace ``shown``: a newer version, or the same one told later
  // (the tables' statuses change without the clock's version). Another wave (the hall
  // moving on) is always taken.
  const isNewer = (incoming, shown) => {
    if (!shown || incoming.wave !== shown.wave) return true;
    const incomingVersion = incoming.version || 0;
    const shownVersion = shown.version || 0;
    if (incomingVersion !== shownVersion) return incomingVersion > shownVersion;
    return incoming.server_ms >= shown.server_ms;
  };

  const count = (element, name) => {
    element.dataset[name] = String(Number(element.dataset[name] || 0) + 1);
  };

  class PageClock {
    constructor(root) {
      this.root = root;
      this.url = root.dataset.stateUrl;
      this.pollMs = Number(root.dataset.poll) || 5000;
      this.samples = [];
      this.state = null;
      this.previous = null;
      this.find = (name) => root.querySelector(`[${name}]`);
      this.refreshing = false;
      // The version the card's controls were drawn with (the head judge's page).
      this.cardVersion = null;
      this.takeEmbedded();
    }

    offset() {
      // Before the first answer: the page's own state, told just before it arrived.
      if (!this.samples.length) return this.firstOffset || 0;
      const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
      return best.offset;
    }

    // The state drawn into the page (at load, and after htmx brought a new card).
    takeEmbedded() {
      const state = embeddedState(this.root);
      if (!state) return;
      if (this.firstOffset === undefined) this.firstOffset = state.server_ms - Date.now();
      this.cardVersion = state.version || 0;
      // A card of the version shown but told earlier than the last poll: draw the poll's.
      if (!this.take(state) && this.state) this.render();
    }

    // Show ``data`` if it is not older than what is shown; says whether it was taken.
    take(data) {
      if (!isNewer(data, this.state)) return false;
      this.state = data;
      if (data.version !== undefined) this.root.dataset.version = String(data.version);
      this.render();
      return true;
    }

    // The head judge's card fetched again when the clock changed under it. Not while a
    // request of the card is on its way, nor while someone types in it: nothing typed is lost.
    refreshCard() {
      const url = this.root.dataset.cardUrl;
      if (!url || !window.htmx || this.refreshing || this.cardVersion === null) return;
      if ((this.state.version || 0) <= this.cardVersion) return;
      if (this.root.querySelector(".htmx-request")) return;
      const typing = Array.from(this.root.querySelectorAll("input, textarea, select")).some(
        (field) => field === document.activeElement || (field.type !== "hidden" && field.value !== field.defaultValue),
      );
      if (typing) return;
      this.refreshing = true;
      Promise.resolve(window.htmx.ajax("GET", url, { target: this.root, swap: "innerHTML" })).finally(() => {
        this.refreshing = false;
      });
    }

    async poll() {
      const t0 = Date.now();
      let data;
      try {
        const response = await fetch(this.url, { cache: "no-store", headers: { Accept: "application/json" } });
        if (!response.ok) return;
        data = await response.json();
      } catch (error) {
        return; // Keep the last state; the next poll tries again.
      }
      const t1 = Date.now();
      this.samples.push({ offset: data.server_ms - (t0 + t1) / 2, rtt: t1 - t0 });
      if (this.samples.length > SAMPLES) this.samples.shift();
      if (this.root.hasAttribute("data-reload-on-wave-change") && String(data.wave ?? "") !== this.root.dataset.wave) {
        window.location.reload();
        return;
      }
      // The hall display: the winner released (or withdrawn) switches its end state.
      if ("ended" in this.root.dataset && "ended" in data && String(Boolean(data.ended)) !== this.root.dataset.ended) {
        window.location.reload();
        return;
      }
      const taken = this.take(data);
      // Told to whoever listens (the browser tests): each answer, and whether it was shown.
      if (!taken) count(this.root, "pollsIgnored");
      count(this.root, "pollsSeen");
      this.root.dispatchEvent(
        new CustomEvent("clock:answer", { detail: { serverMs: data.server_ms, version: data.version, taken } }),
      );
      this.refreshCard();
    }

    remaining() {
      const state = this.state;
      if (state.status !== "running") return state.remaining_ms;
      const serverNow = Date.now() + this.offset();
      return Math.max(state.remaining_ms - (serverNow - state.server_ms), 0);
    }

    render() {
      const state = this.state;
      if (!state || state.wave === null) return;
      const remaining = this.remaining();
      let status = state.status;
      if (status === "running" && remaining <= 0) status = "time_up";

      const remainingElement = this.find("data-clock-remaining");
      if (remainingElement) remainingElement.textContent = format(remaining);
      this.root.dataset.status = status;
      const statusElement = this.find("data-clock-status");
      if (statusElement) {
        statusElement.dataset.status = status;
        statusElement.textContent = state.status_labels[status];
      }

      const started = status !== "not_started";
      const schedule = state.announcements;
      const upcoming = schedule.find((a) => a.at_ms < remaining);
      const made = started ? schedule.filter((a) => a.at_ms >= remaining) : [];
      const last = made[made.length - 1];
      const nextElement = this.find("data-clock-next");
      if (nextElement) {
        nextElement.textContent = upcoming && status !== "ended" ? (labels.next || "Next: %s").replace("%s", upcoming.message) : "";
      }
      const current = this.find("data-clock-announcement");
      if (current) {
        const showing = last && status !== "ended" && (last.at_ms === 0 || remaining > last.at_ms - SHOW_MS);
        current.hidden = !showing;
        current.textContent = showing ? last.message : "";
      }
      // Chime only when this page saw the moment pass, not on a reload after it.
      if (this.previous !== null && status !== "not_started") {
        if (schedule.some((a) => this.previous > a.at_ms && a.at_ms >= remaining)) chime();
      }
      this.previous = remaining;

      if (status === "time_up" || status === "ended") {
        document.querySelectorAll("[data-enable-when-time-called]").forEach((button) => {
          button.disabled = false;
        });
      }
      // Lines the server words itself (the start of play, the winner), hidden while empty.
      this.root.querySelectorAll("[data-clock-text]").forEach((element) => {
        const text = (state.texts || {})[element.dataset.clockText] || "";
        element.textContent = text;
        element.hidden = !text;
      });
      (state.tables || []).forEach((table) => {
        const row = this.root.querySelector(`[data-table-pk="${table.pk}"]`);
        if (!row) return;
        row.dataset.status = table.status;
        const label = row.querySelector("[data-table-label]");
        if (label) label.textContent = table.label;
      });
    }

    start() {
      this.poll();
      setInterval(() => this.poll(), this.pollMs);
    }
  }

  // htmx answers into a clock (the head judge's card): never an older card over a newer
  // one; the result line of an ignored answer is still shown.
  const clockOf = new Map();
  const guardSwaps = () => {
    document.addEventListener("htmx:beforeSwap", (event) => {
      const clock = clockOf.get(event.detail.target);
      if (!clock || !clock.state || typeof event.detail.serverResponse !== "string") return;
      const answer = new DOMParser().parseFromString(event.detail.serverResponse, "text/html");
      const incoming = embeddedState(answer);
      if (!incoming || incoming.wave !== clock.state.wave) return;
      if ((incoming.version || 0) >= (clock.state.version || 0)) return;
      event.detail.shouldSwap = false;
      count(clock.root, "swapsIgnored");
      const feedback = answer.querySelector("[data-card-feedback]");
      const shown = clock.root.querySelector("[data-card-feedback]");
      if (feedback && shown) shown.replaceWith(document.importNode(feedback, true));
      else if (feedback) clock.root.querySelector(".actions")?.before(document.importNode(feedback, true));
      clock.refreshCard();
    });
    document.addEventListener("htmx:afterSwap", (event) => {
      const clock = clockOf.get(event.detail.target);
      if (clock) clock.takeEmbedded();
    });
  };

  const init = () => {
    const clocks = Array.from(document.querySelectorAll("[data-clock]"), (root) => new PageClock(root));
    clocks.forEach((clock) => clockOf.set(clock.root, clock));
    guardSwaps();
    clocks.forEach((clock) => clock.start());
    setInterval(() => clocks.forEach((clock) => clock.state && clock.render()), TICK_MS);
    // After sleep or a tab switch, ask the server at once rather than wait for the next poll.
    const refresh = () => {
      if (document.visibilityState === "visible") clocks.forEach((clock) => clock.poll());
    };
    document.addEventListener("visibilitychange", refresh);
    window.addEventListener("pageshow", refresh);
    document.querySelectorAll("[data-chime-toggle]").forEach(setupChimeToggle);
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
