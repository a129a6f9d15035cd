/* The host's console: every control posts one command with the session's CSRF token and shows
   the service's answer; the page follows the table live like the dashboard. */
"use strict";

(() => {
  const { el, fmt, card, _ } = TT;
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let state = null;

  const flash = TT.flash;

  async function post(url, body) {
    try {
      const r = await fetch(url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
        body: JSON.stringify(body || {}),
      });
      const data = await r.json().catch(() => ({ ok: false, error: _("HTTP {status}", { status: r.status }) }));
      if (r.status === 401) { location.href = "/admin"; return data; }
      if (!data.ok) flash(data.error || _("refused (HTTP {status})", { status: r.status }), false);
      return data;
    } catch (e) {
      flash(_("the table does not answer: check the Wi-Fi"), false);
      return { ok: false };
    }
  }

  const command = async (body, done) => {
    const data = await post("/admin/command", body);
    if (data.ok && done) flash(done, true);
    return data;
  };

  /* ------------------------------------------------------------ console */
  function raiseRange(s) {
    const option = (s.legal_actions || []).find((a) => a.action === "bet" || a.action === "raise");
    return option ? [option.min_to, option.max_to, option.action] : null;
  }

  /** The state with at least this version (the one a command's answer names), or the newest
      one after a second and a half if the live feed is slow. */
  const waiting = [];
  function stateAfter(version) {
    if (state && state.version >= version) return Promise.resolve(state);
    return new Promise((resolve) => {
      const entry = { version, resolve };
      waiting.push(entry);
      setTimeout(() => { const i = waiting.indexOf(entry); if (i >= 0) { waiting.splice(i, 1); resolve(state); } }, 1500);
    });
  }
  function wake(s) {
    for (const entry of waiting.filter((w) => s.version >= w.version)) {
      waiting.splice(waiting.indexOf(entry), 1);
      entry.resolve(s);
    }
  }

  const LABEL = { fold: _("FOLD"), check_call: _("CHECK/CALL"), bet_raise: _("BET/RAISE"), all_in: _("ALL-IN"), plus: "+", minus: "−", undo: _("UNDO"), next: _("NEXT/CONFIRM") };

  /** What a console press did, in words: from the table the host saw when pressing (who was to
      act, what calling cost) and the table after it. */
  function pressed(button, before, after) {
    const seat = before.to_act;
    const who = seat !== null && seat !== undefined ? seatLabel(before, seat) : "";
    const legal = before.legal_actions || [];
    const game = before.draw_game;
    if (game && game.to_draw !== null && game.to_draw !== undefined && (button === "check_call" || button === "next")) {
      const count = before.pending_draw || 0;
      const who = seatLabel(before, game.to_draw);
      return count ? _("{name} draws {count}", { name: who, count }) : _("{name} stands pat", { name: who });
    }
    const betNow = after && seat !== null && seat !== undefined && after.seats[seat] ? after.seats[seat].bet : null;
    switch (button) {
      case "fold": return _("{name} folds", { name: who });
      case "check_call": {
        const call = legal.find((a) => a.action === "call");
        return call ? _("{name} calls {amount}", { name: who, amount: fmt(call.min_to) }) : _("{name} checks", { name: who });
      }
      case "bet_raise": {
        const option = legal.find((a) => a.action === "bet" || a.action === "raise");
        const bets = option && option.action === "bet";
        if (betNow === null) return bets ? _("{name} bets", { name: who }) : _("{name} raises", { name: who });
        return bets ? _("{name} bets {amount}", { name: who, amount: fmt(betNow) }) : _("{name} raises to {amount}", { name: who, amount: fmt(betNow) });
      }
      case "all_in": return betNow !== null ? _("{name} is all-in ({amount})", { name: who, amount: fmt(betNow) }) : _("{name} is all-in", { name: who });
      case "plus": case "minus":
        if (after && after.draw_game && after.pending_draw !== null && after.pending_draw !== undefined) return _("cards to exchange: {count}", { count: after.pending_draw });
        return after && after.pending_bet ? _("bet or raise amount: {amount}", { amount: fmt(after.pending_bet) }) : _("amount changed");
      case "undo": return _("the last step is taken back");
      case "next":
        if (after && after.hand_number > before.hand_number) return _("hand {number} is dealt", { number: after.hand_number });
        if (after && after.phase === "settled") return _("hand {number} is settled", { number: after.hand_number });
        return _("confirmed");
      default: return _("done");
    }
  }

  async function press(button) {
    const before = state;
    if (button === "bet_raise") {
      const amount = parseInt($("amount").value, 10);
      const range = state && raiseRange(state);
      if (range && Number.isFinite(amount) && amount !== state.pending_bet) {
        const set = await command({ kind: "bet_amount", amount });
        if (!set.ok) return;
      }
    }
    if (button === "all_in" && !confirm(_("ALL-IN for the seat to act?"))) return;
    const data = await command({ kind: "press", button });
    if (!data.ok) return;  // the refusal is shown already
    const after = await stateAfter(data.version);
    const what = before ? pressed(button, before, after) : _("done");
    flash(_("{button}: {what}", { button: LABEL[button] || button, what }), true);
  }

  document.querySelectorAll("[data-press]").forEach((b) => b.addEventListener("click", () => press(b.dataset.press)));
  document.querySelectorAll("[data-command]").forEach((b) => b.addEventListener("click", () => command(JSON.parse(b.dataset.command), "done")));
  $("amount-slider").addEventListener("input", (e) => { $("amount").value = e.target.value; });
  $("amount").addEventListener("change", () => {
    const amount = parseInt($("amount").value, 10);
    if (Number.isFinite(amount)) command({ kind: "bet_amount", amount });
  });

  /* ------------------------------------------------------------ forms */
  const words = (text) => text.trim().split(/[\s,]+/).filter(Boolean);
  const target = (value) => {
    const [where, index] = value.split(":");
    return { seat: where === "board" ? null : parseInt(where, 10), index: parseInt(index, 10) };
  };
  function onSubmit(id, handler) {
    $(id).addEventListener("submit", (e) => { e.preventDefault(); handler(new FormData(e.target), e.target); });
  }
  onSubmit("form-board", (f, form) => command({ kind: "deal_board", cards: words(f.get("cards")) }, _("board dealt")).then((d) => d.ok && form.reset()));
  onSubmit("form-show", (f) => command({ kind: "show", seat: parseInt(f.get("seat"), 10), cards: words(f.get("cards")) }, _("shown")));
  $("btn-muck").addEventListener("click", () => command({ kind: "muck", seat: parseInt($("form-show").seat.value, 10) }, "mucked"));
  onSubmit("form-correct", (f) => command({ kind: "correct", ...target(f.get("target")), card: f.get("card").trim() }, _("corrected")));
  onSubmit("form-mark", (f) => command({ kind: "mark", ...target(f.get("target")), mark: `${f.get("suit")}:${f.get("size")}` }, _("mark set")));
  onSubmit("form-seat", (f, form) => command({ kind: "seat", seat: parseInt(f.get("seat"), 10), name: f.get("name").trim(), chips: parseInt(f.get("chips"), 10) }, _("seated")).then((d) => d.ok && form.reset()));
  onSubmit("form-button", (f) => command({ kind: "choose_button", seat: parseInt(f.get("seat"), 10) }, _("button placed, first hand dealt")));
  onSubmit("form-level", (f) => command({ kind: "set_level", index: parseInt(f.get("index"), 10) }, _("level set")));
  onSubmit("form-draw", (f) => {
    const game = state && state.draw_game;
    if (!game || game.to_draw === null) { flash(_("no draw to record now"), false); return; }
    const count = parseInt(f.get("count"), 10);
    const who = seatLabel(state, game.to_draw);
    command({ kind: "draw", seat: game.to_draw, count }, count ? _("{name} drew {count}", { name: who, count }) : _("{name} drew none (pat)", { name: who }));
  });
  const variantSelect = document.querySelector('#form-game select[name="variant"]');
  const showDrawOptions = () => { $("draw-options").hidden = !["draw", "lowball"].includes(variantSelect.value); };
  variantSelect.addEventListener("change", showDrawOptions);
  showDrawOptions();
  onSubmit("form-game", async (f) => {
    const body = Object.fromEntries(f.entries());
    body.rebuys = f.get("rebuys") === "on";
    body.opening_bet = f.get("opening_bet") === "on";
    body.two_players = f.get("two_players") === "on";
    for (const key of ["seats", "buy_in", "jokers", "max_draw"]) body[key] = parseInt(body[key], 10);
    body.level_minutes = parseFloat(body.level_minutes || "0");
    if (!confirm(_("Close this session and start the new game?"))) return;
    const data = await post("/admin/game", body);
    if (data.ok) flash(_("new game started"), true);
  });
  $("btn-chipset").addEventListener("click", async () => {
    const data = await post("/admin/chip-set", { name: $("chip-set-select").value });
    if (data.ok) flash(_("chips drawn as the {name} set", { name: data.chip_set.name }), true);
  });
  $("btn-end").addEventListener("click", async () => {
    if (!confirm(_("End the session? Its hand histories and ledger stay available for export."))) return;
    const data = await post("/admin/end", {});
    if (data.ok) flash(_("session {ended} ended; session {open} is open", { ended: data.ended, open: data.session }), true);
  });

  /* ------------------------------------------------------------ live rendering */
  function options(select, items, keep) {
    const before = select.value;
    select.replaceChildren(...items.map(([value, label]) => el("option", { value, text: label })));
    if (keep && items.some(([v]) => String(v) === before)) select.value = before;
  }

  function seatActions(p) {
    const cell = el("td", {});
    if (!p.name) return cell;
    const rebuy = el("button", { class: "btn small", text: _("Rebuy"), onclick: () => {
      const amount = parseInt(prompt(_("Rebuy for {name}: how many chips?", { name: p.name }), "1000"), 10);
      if (amount > 0) command({ kind: "rebuy", seat: p.seat, amount }, _("rebuy done"));
    } });
    const sit = el("button", { class: "btn small", text: p.sitting_out ? _("Sit in") : _("Sit out"),
      onclick: () => command({ kind: "sit_out", seat: p.seat, back: p.sitting_out }, _("done")) });
    const leave = el("button", { class: "btn small", text: _("Leave"), onclick: () => {
      if (confirm(_("{name} leaves with {amount}?", { name: p.name, amount: fmt(p.stack) }))) command({ kind: "leave", seat: p.seat }, _("left"));
    } });
    cell.append(el("span", { class: "row", style: { justifyContent: "flex-end", flexWrap: "nowrap", gap: ".3em" } }, rebuy, sit, leave));
    return cell;
  }

  function seatLabel(s, seat) { return (s.seats[seat] && s.seats[seat].name) || _("seat {n}", { n: seat + 1 }); }

  /** Five-card draw: the draw-count form while someone is to draw, and five-card placeholders. */
  function renderDraw(s) {
    const game = s.draw_game;
    const drawing = !!game && s.phase === "playing" && game.to_draw !== null && game.to_draw !== undefined;
    $("form-draw").hidden = !drawing;
    if (drawing) {
      const most = game.rules.max_draw, count = $("draw-count");
      count.max = most;
      $("draw-label").textContent = _("{name} exchanges (0–{most})", { name: seatLabel(s, game.to_draw), most });
      if (document.activeElement !== count) count.value = s.pending_draw !== null && s.pending_draw !== undefined ? s.pending_draw : 0;
    }
    $("form-show").cards.placeholder = game ? _("five cards, Jk for a joker") : _("two cards, e.g. Jd Td");
  }

  function render(s) {
    state = s;
    wake(s);
    const toAct = s.to_act !== null && s.to_act !== undefined ? s.seats[s.to_act] : null;
    const game = s.draw_game;
    $("hand-no").textContent = s.hand_number ? `· ${_("hand {number}", { number: s.hand_number })}` : "";
    const waiting = { preflop: _("Waiting for the flop"), flop: _("Waiting for the turn"), turn: _("Waiting for the river") }[s.street] || _("Waiting for the cards");
    $("now").textContent = toAct && s.phase === "playing" ? _("{name} to act", { name: toAct.name }) : game && s.phase === "playing" && game.to_draw !== null ? _("{name} to draw", { name: seatLabel(s, game.to_draw) }) : { seating: _("Waiting for the first dealer"), settled: _("Hand {number} is over", { number: s.hand_number }), ready: _("Between hands"), playing: s.street === "showdown" ? _("Showdown") : waiting }[s.phase];
    renderDraw(s);
    const ACTION = { fold: _("fold"), check: _("check"), all_in: _("all-in") };
    const legal = (s.legal_actions || []).map((a) => a.action === "call" ? _("call {amount}", { amount: fmt(a.min_to) })
      : a.action === "bet" ? _("bet {low}–{high}", { low: fmt(a.min_to), high: fmt(a.max_to) })
      : a.action === "raise" ? _("raise {low}–{high}", { low: fmt(a.min_to), high: fmt(a.max_to) }) : ACTION[a.action] || a.action.replace("_", "-"));
    const STREET = { preflop: _("pre-flop"), flop: _("flop"), turn: _("turn"), river: _("river"), showdown: _("showdown") };
    $("now-detail").textContent = [game ? [game.name, game.phase].filter(Boolean).join(" · ") : s.street ? STREET[s.street] || s.street : "", legal.join(" · "), s.confirm_in !== null && s.confirm_in !== undefined ? _("next hand in {seconds} s", { seconds: Math.ceil(s.confirm_in) }) : ""].filter(Boolean).join(" — ");
    TT.fill($("now-board"), ...s.board.map((c) => card(c, "mini")));
    $("now-pot").textContent = s.pot_total ? _("pot {amount}", { amount: fmt(s.pot_total) }) : "";
    // The host's own warnings (a refused command) come only on the host's stream, never to the phones;
    // "not saving" is the banner under the header, not a warning in the list.
    TT.fill($("warnings"), ...(s.warnings || []).filter((w) => w.kind !== "storage").map((w) => el("li", { "data-kind": w.kind, text: w.kind === "rejected" ? _("✖ refused: {reason}", { reason: w.message }) : _("⚠ {reason}", { reason: w.message }) })));
    const noPicture = _("no picture");
    if (s.camera && !s.camera.ok) $("warnings").append(el("li", { text: _("⚠ camera: {reason}", { reason: s.camera.message || noPicture }) }));

    const range = raiseRange(s);
    const call = (s.legal_actions || []).find((a) => a.action === "call");
    $("btn-call").textContent = call ? _("CALL {amount}", { amount: fmt(call.min_to) }) : _("CHECK");
    $("btn-bet").textContent = range ? (range[2] === "bet" ? _("BET TO") : _("RAISE TO")) : _("BET/RAISE");
    const slider = $("amount-slider"), amount = $("amount");
    if (range) {
      slider.min = range[0]; slider.max = range[1]; slider.step = (s.blinds && s.blinds.big_blind) || 1;
      amount.min = range[0]; amount.max = range[1];
      const wanted = s.pending_bet !== null && s.pending_bet !== undefined ? s.pending_bet : range[0];
      if (document.activeElement !== amount) amount.value = wanted;
      slider.value = amount.value;
      const span = { low: fmt(range[0]), high: fmt(range[1]) };
      const text = range[2] === "bet" ? _("bet to {low} … {high}", span) : _("raise to {low} … {high}", span);
      $("amount-range").textContent = s.pending_bet ? `${text} · ${_("set: {amount}", { amount: fmt(s.pending_bet) })}` : text;
    } else {
      $("amount-range").textContent = _("no bet or raise possible now");
    }
    slider.disabled = !range;

    const seated = s.seats.filter((p) => p.name);
    const seatItems = seated.map((p) => [p.seat, `${p.seat + 1}. ${p.name}`]);
    document.querySelectorAll(".seat-select").forEach((sel) => options(sel, seatItems, true));
    const empty = s.seats.filter((p) => !p.name).map((p) => [p.seat, _("seat {n}", { n: p.seat + 1 })]);
    options($("empty-seats"), empty, true);
    $("form-seat").hidden = empty.length === 0;
    const correctables = s.board.map((c, i) => [`board:${i}`, _("board {n} ({card})", { n: i + 1, card: c })]);
    for (const p of s.seats) p.hole.forEach((c, i) => correctables.push([`${p.seat}:${i}`, _("{name} card {n} ({card})", { name: p.name, n: i + 1, card: c })]));
    options($("correct-target"), correctables.length ? correctables : [["board:0", _("no card read yet")]], true);
    const markables = [0, 1, 2, 3, 4].map((i) => [`board:${i}`, _("board {n}", { n: i + 1 })]);
    for (const p of s.seats) if (p.in_hand) [0, 1].forEach((i) => markables.push([`${p.seat}:${i}`, _("{name} card {n}", { name: p.name, n: i + 1 })]));
    options($("mark-target"), markables, true);
    $("form-button").hidden = s.phase !== "seating";

    const rows = [el("tr", {}, el("th", { text: _("Seat") }), el("th", { text: _("Stack") }), el("th", { text: "" }))];
    const STATE = { sitting_out: _("sitting out"), busted: _("busted"), folded: _("folded"), empty: _("empty") };
    for (const p of s.seats) {
      if (!p.name) continue;
      rows.push(el("tr", {}, el("td", { text: `${p.seat + 1}. ${p.name}${p.dealer ? ` (${_("D")})` : ""}${p.state !== "playing" && p.state !== "waiting" ? ` · ${STATE[p.state] || p.state.replace("_", " ")}` : ""}` }),
        el("td", { class: "num", text: fmt(p.stack) }), seatActions(p)));
    }
    TT.fill($("players"), ...rows);

    const b = s.blinds;
    const CLOCK = { running: _("clock running"), paused: _("clock paused"), stopped: _("clock stopped") };
    const level = { level: b.level + 1, levels: b.levels, small: fmt(b.small_blind), big: fmt(b.big_blind), ante: fmt(b.ante) };
    $("clock-now").textContent = [b.ante ? _("level {level}/{levels}: {small}/{big} ante {ante}", level) : _("level {level}/{levels}: {small}/{big}", level),
      CLOCK[b.clock] || b.clock, b.seconds_left !== null && b.level_seconds > 0 ? _("{time} left", { time: TT.mmss(b.seconds_left) }) : ""].filter(Boolean).join(" · ");
    options($("level-select"), Array.from({ length: b.levels }, (unused, i) => [i, _("level {n}", { n: i + 1 })]), true);
  }

  const live = $("live");
  TT.follow(render, (mode) => {
    live.className = `live live-${mode === "live" ? "on" : mode}`;
    live.textContent = mode === "live" ? _("live") : mode === "polling" ? _("polling") : _("offline");
  }, { events: "/admin/events", state: "/admin/state" });
})();
