/* Drawing helpers shared by the dashboard, admin and dice pages: DOM and SVG builders, cards,
   Tock backs, chips. Everything is built with textContent, never innerHTML, so a player's
   name can never inject markup. No dependencies, no build step. */
"use strict";

const TT = (() => {
  const SUIT = { s: "♠", h: "♥", d: "♦", c: "♣" };
  const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const SIZE_NAME = { small: "small", medium: "medium", large: "large", ace: "ace" };
  const SVG_NS = "http://www.w3.org/2000/svg";
  // The page's language (base.html's tt-words: web.words.Words.for_scripts): messages, plural forms, number symbols.
  const WORDS = (() => {
    const node = document.getElementById("tt-words");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
  })();
  const MESSAGES = WORDS.messages || {};

  function fillIn(text, values) {
    return values ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : text;
  }

  /** A message in the page's language: _("{name} to act", { name }). */
  function _(message, values) {
    const said = MESSAGES[message];
    return fillIn(typeof said === "string" && said ? said : message, values);
  }

  /** The form of a message for a count n ({n} is n as the language writes it). */
  function ngettext(singular, plural, n, values) {
    const forms = MESSAGES[singular];
    const table = WORDS.plurals || [];
    const count = Math.abs(Math.round(Number(n) || 0));
    const index = Array.isArray(forms) && table.length ? table[count < table.length ? count : 100 + (count % 100)] : (count === 1 ? 0 : 1);
    const text = Array.isArray(forms) && forms[index] ? forms[index] : (index === 0 ? singular : plural);
    return fillIn(text, Object.assign({ n: fmt(n) }, values));
  }

  function apply(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key === "class") node.setAttribute("class", value);
      else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
      else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  function append(node, children) {
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** An HTML element: el("div", {class: "x", text: "hi"}, child, ...). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    apply(node, attrs);
    return append(node, children);
  }

  /** Replace a node's children (null, undefined and false are left out, unlike replaceChildren). */
  function fill(node, ...children) {
    node.replaceChildren();
    return append(node, children);
  }

  /** An SVG element. */
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    apply(node, attrs);
    return append(node, children);
  }

  /** 12345 -> "12,345" in English, "12 345" in French (the page's language, whatever the phone's locale). */
  function fmt(n) {
    const value = Math.round(Number(n) || 0);
    const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, WORDS.group || ",");
    return value < 0 ? `-${digits}` : digits;
  }

  function mmss(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const two = (x) => String(x).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(r)}` : `${two(m)}:${two(r)}`;
  }

  /** A face-up card: "Ah" -> a white card with "A" and a red heart. */
  function card(code, extra) {
    if (!code) return back(null, extra);
    if (code === "Jk") {  // five-card draw's joker ("le Fou")
      return el("span", { class: `card face joker ${extra || ""}`, title: _("joker"), "aria-label": _("joker"), "data-card": code },
        el("span", { class: "rank", text: "J" }), el("span", { class: "pip", text: "★" }));
    }
    const rank = code.slice(0, -1), suit = code.slice(-1);
    const shown = rank === "T" ? "10" : rank;
    const red = suit === "h" || suit === "d";
    return el("span", {
      class: `card face ${red ? "red" : "black"} ${extra || ""}`,
      title: `${shown}${SUIT[suit] || suit}`,
      "aria-label": _("{rank} of {suit}", { rank: shown, suit: _(SUIT_NAME[suit] || suit) }),
      "data-card": code,
    }, el("span", { class: "rank", text: shown }), el("span", { class: "pip", text: SUIT[suit] || "?" }));
  }

  /** A face-down card; with a Tock mark ("h:large", "s:ace") the mark is drawn on the back:
      the suit pip small, medium or large, the ace's pip inside a ring. */
  function back(mark, extra) {
    const node = el("span", { class: `card back ${extra || ""}`, "aria-label": "face-down card" });
    if (mark && mark !== "plain" && mark.includes(":")) {
      const [suit, size] = mark.split(":");
      const red = suit === "h" || suit === "d";
      node.classList.add("marked");
      node.title = _("Tock mark: {suit}, {size}", { suit: _(SUIT_NAME[suit] || suit), size: _(SIZE_NAME[size] || size) });
      node.setAttribute("data-mark", mark);
      node.append(el("span", { class: `mark ${size} ${red ? "red" : "black"}`, text: SUIT[suit] || "?" }));
    }
    return node;
  }

  /** Chips as small stacks: list is [[value, count], ...] largest first; colours from the chip set. */
  function chips(list, chipSet, opts) {
    const o = Object.assign({ perStack: 6, width: 14 }, opts || {});
    const colour = {};
    for (const c of (chipSet && chipSet.chips) || []) colour[c.value] = c.hex;
    const w = o.width, h = w * 0.32, stacks = list || [];
    const tall = Math.min(o.perStack, Math.max(1, ...stacks.map(([, n]) => n)));
    const width = stacks.length * (w + 3) + 1, height = tall * h * 0.55 + h + 2;
    const root = svg("svg", {
      class: "chips", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": stacks.map(([v, n]) => `${n}×${v}`).join(", "),
    });
    stacks.forEach(([value, count], i) => {
      const cx = 1 + i * (w + 3) + w / 2, fill = colour[value] || "#888";
      const light = isLight(fill);
      const shown = Math.min(count, o.perStack);
      for (let k = 0; k < shown; k++) {
        const cy = height - h / 2 - 1 - k * h * 0.55;
        root.append(svg("ellipse", { cx, cy, rx: w / 2, ry: h / 2, fill, stroke: light ? "#777" : "#111", "stroke-width": 0.6 }));
        root.append(svg("ellipse", {
          cx, cy, rx: w / 2 - 1.3, ry: h / 2 - 0.6, fill: "none", stroke: light ? "#c62828" : "#fff",
          "stroke-width": 1.1, "stroke-dasharray": "2 2.2",
        }));
      }
      root.append(svg("title", { text: `${count} × ${value} (${(chipSet && chipSet.chips.find((c) => c.value === value) || {}).colour || ""})` }));
    });
    return root;
  }

  function isLight(hex) {
    const v = parseInt(String(hex).replace("#", ""), 16);
    if (Number.isNaN(v)) return false;
    return ((v >> 16) & 255) * 0.3 + ((v >> 8) & 255) * 0.59 + (v & 255) * 0.11 > 160;
  }

  /** A message in the page's #flash box: green for done, red (and longer) for a refusal. */
  function flash(text, ok) {
    const box = document.getElementById("flash");
    box.hidden = false;
    box.classList.remove("ok", "error");
    box.classList.add("flash", ok ? "ok" : "error");
    box.textContent = text;
    clearTimeout(flash.timer);
    flash.timer = setTimeout(() => { box.hidden = true; }, ok ? 2500 : 9000);
  }

  /** Palette for players in the chart (distinct on a dark background). */
  const PALETTE = ["#ffca28", "#4fc3f7", "#ef5350", "#66bb6a", "#ab47bc", "#ff7043", "#26c6da", "#d4e157", "#ec407a", "#8d6e63"];

  /** A polling JSON GET that never throws: null on any failure. */
  async function getJSON(url) {
    try {
      const r = await fetch(url, { cache: "no-store", headers: { Accept: "application/json" } });
      return r.ok ? await r.json() : null;
    } catch (e) {
      return null;
    }
  }

  /** More than the state from the same stream (e.g. the lens): the page's script registers the
      event name, the URL that answers with the same JSON, and its handler, before follow(). */
  const extras = {};
  function listen(name, url, onData) { extras[name] = { url, onData }; }
  function fetchExtras() {
    for (const x of Object.values(extras)) getJSON(x.url).then((data) => { if (data) x.onData(data); });
  }

  /** The "not saving: ..." banner under the header (base.html) while the state's storage_fault is set. */
  function showStorageFault(state) {
    const banner = document.getElementById("not-saving");
    if (!banner) return;
    const fault = state.storage_fault;
    banner.hidden = !fault;
    banner.textContent = fault ? _("⚠ {reason}", { reason: fault.message }) : "";
  }

  /** Live state: SSE on /api/events, polling /api/state whenever the stream is cut (the host's
      page passes its own: opts.events, opts.state). onState(state) is called for each new
      state; onMode("live"|"polling"|"offline"). */
  function follow(onState, onMode, opts) {
    const o = Object.assign({ pollMs: 1500, reconnectMs: 15000, sse: true, events: "/api/events", state: "/api/state" }, opts || {});
    let lastVersion = -1, lastSession = null, pollTimer = null, mode = null;
    const setMode = (m) => { if (m !== mode) { mode = m; onMode && onMode(m); } };
    const take = (state) => {
      if (!state) return;
      if (state.session === lastSession && state.version <= lastVersion) return;
      lastSession = state.session; lastVersion = state.version;
      showStorageFault(state);
      onState(state);
    };
    const poll = async () => {
      const state = await getJSON(o.state);
      if (state) { take(state); if (mode !== "live") setMode("polling"); } else if (mode !== "live") setMode("offline");
      if (mode !== "live") fetchExtras();
      if (mode !== "live") pollTimer = setTimeout(poll, o.pollMs);
      else pollTimer = null;
    };
    const startPolling = () => { if (!pollTimer) pollTimer = setTimeout(poll, 0); };
    const connect = () => {
      const source = new EventSource(o.events);
      source.addEventListener("open", () => {
        setMode("live");
        if (pollTimer) { clearTimeout(pollTimer); pollTimer = null; }
        fetchExtras();  // whatever changed while the stream was down
      });
      for (const [name, x] of Object.entries(extras)) {
        source.addEventListener(name, (e) => { try { x.onData(JSON.parse(e.data)); } catch (err) { /* the next is whole */ } });
      }
      source.addEventListener("state", (e) => { try { take(JSON.parse(e.data)); } catch (err) { /* torn: the next is whole */ } });
      source.addEventListener("error", () => {
        // The browser reconnects a cut stream by itself; meanwhile the page polls so it never
        // goes stale. A refused stream (all slots taken, server restarting) is retried later.
        setMode("polling");
        startPolling();
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, o.reconnectMs);
      });
    };
    if (o.sse && "EventSource" in window) connect();
    else { setMode("polling"); startPolling(); }
    return { pollNow: poll };
  }

  return { el, svg, fill, fmt, mmss, card, back, chips, flash, PALETTE, getJSON, follow, listen, showStorageFault, SUIT, _, ngettext, language: WORDS.language || "en", decimal: WORDS.decimal || "." };
})();
