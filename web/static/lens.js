/* The learning lens panel on the dashboard: a bar per seat from what the whole table can see
   (Tock-Poker), each hand's chances once face up after an all-in (Hold'em, as TV shows them),
   and after the hand a chart of how the chances moved. Data: GET /api/lens and the `lens`
   server-sent event (registered with TT.listen before the dashboard calls TT.follow). */
"use strict";

(() => {
  const { el, svg, fill, card, back, PALETTE, _, ngettext } = TT;
  const STAGE = { preflop: _("Pre-flop"), flop: _("Flop"), turn: _("Turn"), river: _("River"), showdown: _("Showdown") };
  let doc = null, chosen = null;

  const pct = (v) => _("{number}%", { number: Math.round(100 * v) });
  const colour = (seat) => PALETTE[seat % PALETTE.length];

  function item(code, size) {
    if (code && !code.includes(":")) return card(code, size);
    return back(code, size);
  }

  function bar(seat, equity, win) {
    const shared = Math.max(0, equity - win);
    return el("span", { class: "lens-bar", role: "img", "aria-label": _("{percent} to win or split", { percent: pct(equity) }) },
      el("i", { class: "win", style: { width: `${100 * win}%`, background: colour(seat) } }),
      shared > 0.0005 ? el("i", { class: "tie", style: { width: `${100 * shared}%`, background: colour(seat) } }) : null);
  }

  /* ------------------------------------------------------------ one seat */
  function seatRow(s) {
    const best = s.folded ? _("folded") : (s.best_hand || s.best_example || s.best || "");
    const tags = [];
    if (!s.folded && s.nuts === true) tags.push(el("span", { class: "lens-tag nuts", text: _("can hold the nuts") }));
    if (!s.folded && s.outs && s.outs.length) tags.push(el("span", { class: "lens-tag", text: ngettext("{n} out", "{n} outs", s.outs.length) }));
    const summary = el("summary", { class: "lens-row" },
      el("span", { class: "who", style: { borderColor: colour(s.seat) }, text: s.name }),
      el("span", { class: "shows" }, ...s.shows.map((c) => item(c, "tiny"))),
      bar(s.seat, s.folded ? 0 : s.equity, s.folded ? 0 : s.win),
      el("span", { class: "pct num", text: s.folded ? "–" : pct(s.equity) }),
      el("span", { class: "best" }, best ? el("span", { text: best }) : null, ...tags));
    const why = el("ul", { class: "why" }, ...(s.explanation || []).map((t) => el("li", { text: t })));
    if (s.outs && s.outs.length) why.append(el("li", { class: "outs" }, _("Outs: "), el("span", { class: "cards" }, ...s.outs.map((c) => card(c, "tiny")))));
    return el("li", { class: `lens-seat${s.folded ? " folded" : ""}`, "data-seat": s.seat },
      el("details", {}, summary, why));
  }

  /* ------------------------------------------------------------ a stage of the history (all-in) */
  function stageRows(history, k, lens) {
    const shows = {};
    for (const s of (lens && lens.seats) || []) shows[s.seat] = s.shows;
    return history.seats.map((s) => {
      const outs = s.outs[k];
      const toCome = history.stages[k] === "turn";
      const row = el("div", { class: "lens-row" },
        el("span", { class: "who", style: { borderColor: colour(s.seat) }, text: s.name }),
        el("span", { class: "shows" }, ...(shows[s.seat] || [null, null]).map((c) => item(c, "tiny"))),
        bar(s.seat, s.equity[k], s.win[k]),
        el("span", { class: "pct num", text: pct(s.equity[k]) }));
      const line = toCome && outs && outs.length && s.equity[k] < 0.5
        ? el("div", { class: "outs" }, ngettext("needs one card: ", "needs one of {n} cards: ", outs.length),
          el("span", { class: "cards" }, ...outs.map((c) => card(c, "tiny"))))
        : null;
      return el("li", { class: "lens-seat", "data-seat": s.seat }, row, line);
    });
  }

  function stagePicker(history, k, onPick) {
    return el("div", { class: "lens-stages", role: "tablist" }, ...history.stages.map((st, i) =>
      el("button", { type: "button", class: `btn small${i === k ? " on" : ""}`, role: "tab", "aria-selected": i === k ? "true" : "false",
        "data-stage": st, text: STAGE[st] || st, onclick: () => onPick(i) })));
  }

  /* ------------------------------------------------------------ the chart */
  function chart(history, title) {
    const stages = history.stages;
    if (stages.length < 2) return null;
    const W = 340, H = 172, L = 34, R = 96, T = 10, B = 24;
    const X = (i) => L + (i * (W - L - R)) / (stages.length - 1);
    const Y = (v) => T + (1 - v) * (H - T - B);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title, class: "lens-chart" });
    for (const v of [0, 0.5, 1]) {
      root.append(svg("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: "#2a3d33", "stroke-width": 1 }));
      root.append(svg("text", { x: L - 4, y: Y(v) + 3.5, "text-anchor": "end", fill: "#9fb3a8", "font-size": 10, text: pct(v) }));
    }
    stages.forEach((st, i) => root.append(svg("text", { x: X(i), y: H - 8, "text-anchor": "middle", fill: "#9fb3a8", "font-size": 10, text: STAGE[st] || st })));
    const labels = [], folds = [];
    for (const s of history.seats) {
      let d = "", last = -1;
      s.equity.forEach((v, i) => {
        if (s.folded[i]) return;
        d += `${last < 0 ? "M" : "L"}${X(i).toFixed(1)},${Y(v).toFixed(1)}`;
        last = i;
      });
      if (last < 0) continue;
      const c = colour(s.seat);
      root.append(svg("path", { d, fill: "none", stroke: c, "stroke-width": 2, "stroke-linejoin": "round", "data-seat": s.seat }, svg("title", { text: s.name })));
      s.equity.forEach((v, i) => { if (!s.folded[i] && i <= last) root.append(svg("circle", { cx: X(i), cy: Y(v), r: 2.6, fill: c })); });
      if (last < stages.length - 1) folds.push({ name: s.name, c, stage: stages[last] });
      else labels.push({ y: Y(s.equity[last]), c, text: `${s.name} ${pct(s.equity[last])}` });
    }
    // Keep the names apart: push down from the top, then back up from the bottom edge.
    labels.sort((a, b) => a.y - b.y);
    for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 11);
    for (let i = labels.length - 1; i >= 0; i--) labels[i].y = Math.min(labels[i].y, i === labels.length - 1 ? H - B : labels[i + 1].y - 11);
    for (const l of labels) root.append(svg("text", { x: W - R + 6, y: l.y + 3.5, fill: l.c, "font-size": 10.5, text: l.text }));
    if (!folds.length) return root;
    return el("div", {}, root, el("p", { class: "lens-folds muted" }, _("Folded: "),
      ...folds.map((f, i) => el("span", {}, i ? ", " : "", el("b", { style: { color: f.c }, text: f.name }), ` (${(STAGE[f.stage] || f.stage).toLowerCase()})`))));
  }

  /* ------------------------------------------------------------ the panel */
  function header(d) {
    const what = d.mode === "allin" ? _("All in") : _("The lens");
    const stage = d.stage && d.mode === "tock" ? ` · ${STAGE[d.stage] || d.stage}` : "";
    return el("h2", {}, `${what} · ${_("Hand {number}", { number: d.hand_number })}${stage}`,
      d.pending ? el("span", { class: "lens-badge", text: _("updating…") }) : null,
      d.complete ? el("span", { class: "lens-badge done", text: _("hand over") }) : null);
  }

  function foot(d) {
    const l = d.lens;
    const points = (100 * l.half_width).toFixed(1).replace(".", TT.decimal);
    const how = l.exact ? _("exact") : _("±{points} points", { points });
    return el("p", { class: "lens-foot muted", text: _("{how} · from what the whole table can see, worked out in {millis} ms", { how, millis: Math.round(d.millis || 0) }) });
  }

  function lastChart(d) {
    const last = d.last;
    if (!last || !last.history || last.history.stages.length < 2) return null;
    const pic = chart(last.history, _("hand {number}: how the chances moved", { number: last.hand_number }));
    return el("details", { class: "lens-last" }, el("summary", { text: _("Hand {number}: how the chances moved", { number: last.hand_number }) }), pic);
  }

  function renderTock(d) {
    const l = d.lens, nodes = [header(d)];
    if (!l) { nodes.push(el("p", { class: "muted", text: d.note })); return nodes; }
    nodes.push(el("p", { class: "lens-summary", text: l.summary }));
    if (l.board_words) nodes.push(el("p", { class: "lens-board muted", text: l.board_words }));
    nodes.push(el("ul", { class: "lens-seats" }, ...l.seats.map(seatRow)));
    nodes.push(el("p", { class: "lens-hint muted", text: _("Tap a seat to see why.") }));
    nodes.push(foot(d));
    if (d.complete && d.history) {
      const pic = chart(d.history, _("how each seat's chances moved"));
      if (pic) nodes.push(el("div", { class: "lens-history" }, el("h3", { text: _("How the chances moved") }), pic));
    }
    return nodes;
  }

  function renderAllin(d) {
    const nodes = [header(d)];
    const h = d.history;
    if (!d.lens || !h) { nodes.push(el("p", { class: "muted", text: d.note })); return nodes; }
    nodes.push(el("p", { class: "lens-summary", text: d.note }));
    const start = Math.max(0, h.stages.indexOf(d.allin_stage));
    const k = chosen !== null && chosen < h.stages.length ? chosen : (d.complete ? start : h.stages.length - 1);
    nodes.push(stagePicker(h, k, (i) => { chosen = i; draw(); }));
    nodes.push(el("div", { class: "lens-board" }, el("span", { class: "cards" }, ...h.boards[k].map((c) => (c ? card(c, "tiny") : el("span", { class: "slot tiny" }))))));
    nodes.push(el("ul", { class: "lens-seats" }, ...stageRows(h, k, d.lens)));
    if (d.lens.summary && k === h.stages.length - 1) nodes.push(el("p", { class: "lens-foot muted", text: d.lens.summary }));
    if (d.complete) {
      const pic = chart(h, _("how each hand's chances moved as the board ran out"));
      if (pic) nodes.push(el("div", { class: "lens-history" }, el("h3", { text: _("How the chances moved") }), pic));
    }
    return nodes;
  }

  function draw() {
    const panel = document.getElementById("lens");
    if (!panel || !doc) return;
    const d = doc;
    let nodes = [];
    if (d.mode === "tock") nodes = renderTock(d);
    else if (d.mode === "allin") nodes = renderAllin(d);
    const last = d.mode && d.complete ? null : lastChart(d);
    if (!nodes.length && last) nodes = [el("h2", { text: _("The lens") })];
    if (last) nodes.push(last);
    panel.hidden = nodes.length === 0;
    panel.dataset.mode = d.mode || "";
    panel.dataset.version = d.version;
    // Keep the seats the reader opened open across updates.
    const open = new Set([...panel.querySelectorAll("details[open]")].map((x) => (x.closest("[data-seat]") || x).dataset.seat || x.className));
    fill(panel, ...nodes);
    for (const x of panel.querySelectorAll("details")) {
      const key = (x.closest("[data-seat]") || x).dataset.seat || x.className;
      if (open.has(key)) x.open = true;
    }
  }

  function take(d) {
    if (!d || typeof d.version !== "number") return;
    if (doc && d.worker === doc.worker && d.version <= doc.version) return;  // an older one, late
    if (!doc || d.hand_number !== doc.hand_number) chosen = null;
    doc = d;
    draw();
  }

  TT.listen("lens", "/api/lens", take);
  TT.getJSON("/api/lens").then(take);
})();
