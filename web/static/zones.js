/* The set-up page's zone editor: the board and every seat drawn over the camera's picture;
   a finger (or mouse: pointer events) drags a zone to move it or a corner to reshape it; Save
   sends them to /admin/setup/zones, which keeps them and hands them to the camera at once. */
"use strict";

(() => {
  const { svg, _, ngettext } = TT;
  const $ = (id) => document.getElementById(id);
  const editor = $("zone-editor");
  if (!editor) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const COLOURS = ["#ffca28", "#4fc3f7", "#81c784", "#f06292", "#ba68c8", "#ff8a65", "#4db6ac", "#dce775", "#90a4ae", "#f48fb1", "#aed581"];
  let zones = null, saved = null, locked = true, drag = null, aspect = 16 / 9;
  let ring = null, first = 0;  // after a calibration: the seat zones clockwise, and which is seat 1
  const clamp = (v) => Math.min(1, Math.max(0, v));
  const copy = (z) => JSON.parse(JSON.stringify(z));
  const label = (name) => (name === "board" ? _("board") : _("seat {n}", { n: Number(name.split(":")[1]) + 1 }));
  const colour = (name) => (name === "board" ? "#ffffff" : COLOURS[Number(name.split(":")[1]) % COLOURS.length]);

  function status(text) { $("zones-status").textContent = text; }

  function describe(data) {
    return data.source === "config" ? _("The configuration file's zones are used.")
      : data.source === "saved" ? _("Saved zones are used (kept in the data directory).")
      : _("The default zones are used: drag them over where the cards lie, then save.");
  }

  function changed() { return JSON.stringify(zones) !== JSON.stringify(saved); }

  function draw() {
    const nodes = [];
    for (const [name, zone] of Object.entries(zones || {})) {
      const c = colour(name);
      nodes.push(svg("polygon", { class: "zone", "data-zone": name, points: zone.map((p) => p.join(",")).join(" "), fill: `${c}33`, stroke: c, "stroke-width": 2, "vector-effect": "non-scaling-stroke" }));
      const cx = zone.reduce((s, p) => s + p[0], 0) / zone.length, cy = zone.reduce((s, p) => s + p[1], 0) / zone.length;
      nodes.push(svg("text", { x: cx, y: cy, fill: c, "font-size": 0.04, "text-anchor": "middle", "font-weight": 700, "pointer-events": "none", text: label(name) }));
      if (!locked) zone.forEach((p, i) => nodes.push(svg("ellipse", { class: "handle", "data-zone": name, "data-vertex": i, cx: p[0], cy: p[1], rx: 0.022, ry: 0.022 * aspect, fill: c, stroke: "#000", "stroke-width": 1, "vector-effect": "non-scaling-stroke" })));
    }
    TT.fill(editor, ...nodes);
    $("zones-save").disabled = locked || !changed();
    $("zones-revert").disabled = locked || !changed();
  }

  function at(ev) {
    const r = editor.getBoundingClientRect();
    return [clamp((ev.clientX - r.left) / r.width), clamp((ev.clientY - r.top) / r.height)];
  }

  editor.addEventListener("pointerdown", (ev) => {
    const name = ev.target.dataset && ev.target.dataset.zone;
    if (locked || !name) return;
    ev.preventDefault();
    const vertex = ev.target.dataset.vertex;
    drag = { name, vertex: vertex === undefined ? null : Number(vertex), start: at(ev), from: copy(zones[name]), moved: false };
    editor.setPointerCapture(ev.pointerId);
  });
  editor.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    ev.preventDefault();
    const [x, y] = at(ev);
    if (!drag.moved && Math.hypot(x - drag.start[0], y - drag.start[1]) < 0.01) return;  // a tap, so far
    drag.moved = true;
    if (drag.vertex !== null) {
      zones[drag.name][drag.vertex] = [x, y];
    } else {  // the whole zone moves, kept inside the picture
      const xs = drag.from.map((p) => p[0]), ys = drag.from.map((p) => p[1]);
      const dx = Math.min(1 - Math.max(...xs), Math.max(-Math.min(...xs), x - drag.start[0]));
      const dy = Math.min(1 - Math.max(...ys), Math.max(-Math.min(...ys), y - drag.start[1]));
      zones[drag.name] = drag.from.map(([px, py]) => [px + dx, py + dy]);
    }
    draw();
  });
  function numberFrom(k) {  // the k-th zone of the ring clockwise becomes seat 1
    first = k;
    ring.forEach((_, i) => { zones[`seat:${i}`] = copy(ring[(k + i) % ring.length]); });
  }

  const drop = () => {
    if (!drag) return;
    const tapped = !drag.moved && drag.vertex === null && ring && drag.name.startsWith("seat:");
    if (tapped) {
      numberFrom((first + Number(drag.name.split(":")[1])) % ring.length);
      status(_("Seat 1 is the zone you tapped; the others follow clockwise. Save zones to use them."));
    } else {
      if (ring && drag.name.startsWith("seat:")) ring[(first + Number(drag.name.split(":")[1])) % ring.length] = copy(zones[drag.name]);
      status(changed() ? _("Not saved yet: tap Save zones.") : describe({ source: "saved" }));
    }
    drag = null;
    draw();
  };
  editor.addEventListener("pointerup", drop);
  editor.addEventListener("pointercancel", drop);

  $("zones-save").addEventListener("click", async () => {
    const rounded = Object.fromEntries(Object.entries(zones).map(([k, z]) => [k, z.map(([x, y]) => [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4])]));
    const r = await fetch("/admin/setup/zones", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
      body: JSON.stringify({ zones: rounded }),
    }).catch(() => null);
    const data = r ? await r.json().catch(() => ({ ok: false, error: _("HTTP {status}", { status: r.status }) })) : { ok: false, error: _("the table does not answer") };
    if (!data.ok) { TT.flash(data.error || _("refused"), false); status(data.error || _("refused")); return; }
    zones = data.zones; saved = copy(data.zones); ring = null;
    status(_("Saved: the camera uses these zones now."));
    TT.flash(_("zones saved"), true);
    draw();
  });
  $("zones-revert").addEventListener("click", () => { zones = copy(saved); ring = null; status(describe({ source: "saved" })); draw(); });

  $("zones-calibrate").addEventListener("click", async () => {
    const r = await fetch("/admin/setup/zones/calibrate", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
      body: "{}",
    }).catch(() => null);
    const data = r ? await r.json().catch(() => ({ ok: false, error: _("HTTP {status}", { status: r.status }) })) : { ok: false, error: _("the table does not answer") };
    if (!data.ok) { status(data.error || _("refused")); TT.flash(data.error || _("refused"), false); return; }
    ring = data.ring.map(copy); zones.board = copy(data.board); numberFrom(0);
    status(ngettext("Found {n} card. Tap the zone of seat 1: the others are numbered clockwise from it. Then save.",
      "Found {n} cards. Tap the zone of seat 1: the others are numbered clockwise from it. Then save.", data.cards.length));
    draw();
  });

  /* Whether the zones still match the picture: a camera moved since they were drawn leaves the
     cards outside them; the page then offers to calibrate again. */
  async function match() {
    const data = await TT.getJSON("/admin/setup/zones/check.json");
    const m = data && data.ok ? data.match : null;
    $("zones-match").hidden = !m || m.ok;
    $("zones-match-ok").hidden = !m || !m.ok;
    if (m) { $("zones-match-text").textContent = m.text; $("zones-match-ok").textContent = m.text; }
    setTimeout(match, 3000);
  }
  $("zones-recalibrate").addEventListener("click", () => $("zones-calibrate").click());

  function picture() {
    const img = $("zone-frame"), next = new Image();
    next.onload = () => {
      img.src = next.src;
      if (next.naturalWidth) {
        aspect = next.naturalWidth / next.naturalHeight;
        $("zone-stage").style.aspectRatio = `${next.naturalWidth} / ${next.naturalHeight}`;
      }
      setTimeout(picture, 1000);
    };
    next.onerror = () => setTimeout(picture, 2000);
    next.src = `/admin/camera/frame.jpg?z=${Date.now()}`;
  }

  (async () => {
    const data = await TT.getJSON("/admin/setup/zones.json");
    if (!data) { status(_("The zones could not be loaded: reload the page.")); return; }
    zones = data.zones; saved = copy(data.zones); locked = data.locked;
    status(describe(data) + (data.note ? ` (${data.note})` : ""));
    draw();
    picture();
    if (!locked) match();
  })();
})();
