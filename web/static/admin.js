/* The host's console: every control posts one command with the session's CSRF token and shows
   the service's answer; the page follows the table live like the dashboard. */
"use strict";

(() => {
  const { el, fmt, card } = TT;
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
      const data = await r.json().catch(() => ({ ok: false, error: `HTTP ${r.status}` }));
      if (r.status === 401) { location.href = "/admin"; return data; }
      if (!data.ok) flash(data.error || `refused (HTTP ${r.status})`, false);
      return data;
    } catch (e) {
      flash("the table does not answer: check the Wi-Fi", false);
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

  const LABEL = { fold: "FOLD", check_call: "CHECK/CALL", bet_raise: "BET/RAISE", all_in: "ALL-IN", plus: "+", minus: "−", undo: "UNDO", next: "NEXT/CONFIRM" };

  /** What a console press did, in words: from the table the host saw when pressing (who was to
      act, what calling cost) and the table after it. */
  function pressed(button, before, after) {
    const seat = before.to_act;
    const who = seat !== null && seat !== undefined ? seatLabel(before, seat) : "";
    const legal = before.legal_actions || [];
    const game = before.draw_game;
    if (game && game.to_draw !== null && game.to_draw !== undefined && (button === "check_call" || button === "next")) {
      const count = before.pending_draw || 0;
      return `${seatLabel(before, game.to_draw)} ${count ? `draws ${count}` : "stands pat"}`;
    }
    const betNow = after && seat !== null && seat !== undefined && after.seats[seat] ? after.seats[seat].bet : null;
    switch (button) {
      case "fold": return `${who} folds`;
      case "check_call": {
        const call = legal.find((a) => a.action === "call");
        return call ? `${who} calls ${fmt(call.min_to)}` : `${who} checks`;
      }
      case "bet_raise": {
        const option = legal.find((a) => a.action === "bet" || a.action === "raise");
        const verb = option && option.action === "bet" ? "bets" : "raises to";
        return betNow !== null ? `${who} ${verb} ${fmt(betNow)}` : `${who} ${verb}`;
      }
      case "all_in": return betNow !== null ? `${who} is all-in (${fmt(betNow)})` : `${who} is all-in`;
      case "plus": case "minus":
        if (after && after.draw_game && after.pending_draw !== null && after.pending_draw !== undefined) return `cards to exchange: ${after.pending_draw}`;
        return after && after.pending_bet ? `bet or raise amount: ${fmt(after.pending_bet)}` : "amount changed";
      case "undo": return "the last step is taken back";
      case "next":
        if (after && after.hand_number > before.hand_number) return `hand ${after.hand_number} is dealt`;
        if (after && after.phase === "settled") return `hand ${after.hand_number} is settled`;
        return "confirmed";
      default: return "done";
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
    if (button === "all_in" && !confirm("ALL-IN for the seat to act?")) return;
    const data = await command({ kind: "press", button });
    if (!data.ok) return;  // the refusal is shown already
    const after = await stateAfter(data.version);
    flash(`${LABEL[button] || button}: ${before ? pressed(button, before, after) : "done"}`, true);
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
  onSubmit("form-board", (f, form) => command({ kind: "deal_board", cards: words(f.get("cards")) }, "board dealt").then((d) => d.ok && form.reset()));
  onSubmit("form-show", (f) => command({ kind: "show", seat: parseInt(f.get("seat"), 10), cards: words(f.get("cards")) }, "shown"));
  $("btn-muck").addEventListener("click", () => command({ kind: "muck", seat: parseInt($("form-show").seat.value, 10) }, "mucked"));
  onSubmit("form-correct", (f) => command({ kind: "correct", ...target(f.get("target")), card: f.get("card").trim() }, "corrected"));
  onSubmit("form-mark", (f) => command({ kind: "mark", ...target(f.get("target")), mark: `${f.get("suit")}:${f.get("size")}` }, "mark set"));
  onSubmit("form-seat", (f, form) => command({ kind: "seat", seat: parseInt(f.get("seat"), 10), name: f.get("name").trim(), chips: parseInt(f.get("chips"), 10) }, "seated").then((d) => d.ok && form.reset()));
  onSubmit("form-button", (f) => command({ kind: "choose_button", seat: parseInt(f.get("seat"), 10) }, "button placed, first hand dealt"));
  onSubmit("form-level", (f) => command({ kind: "set_level", index: parseInt(f.get("index"), 10) }, "level set"));
  onSubmit("form-draw", (f) => {
    const game = state && state.draw_game;
    if (!game || game.to_draw === null) { flash("no draw to record now", false); return; }
    const count = parseInt(f.get("count"), 10);
    command({ kind: "draw", seat: game.to_draw, count }, `${seatLabel(state, game.to_draw)} drew ${count || "none (pat)"}`);
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
    if (!confirm("Close this session and start the new game?")) return;
    const data = await post("/admin/game", body);
    if (data.ok) flash("new game started", true);
  });
  $("btn-chipset").addEventListener("click", async () => {
    const data = await post("/admin/chip-set", { name: $("chip-set-select").value });
    if (data.ok) flash(`chips drawn as the ${data.chip_set.name} set`, true);
  });
  $("btn-end").addEventListener("click", async () => {
    if (!confirm("End the session? Its hand histories and ledger stay available for export.")) return;
    const data = await post("/admin/end", {});
    if (data.ok) flash(`session ${data.ended} ended; session ${data.session} is open`, true);
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
    const rebuy = el("button", { class: "btn small", text: "Rebuy", onclick: () => {
      const amount = parseInt(prompt(`Rebuy for ${p.name}: how many chips?`, "1000"), 10);
      if (amount > 0) command({ kind: "rebuy", seat: p.seat, amount }, "rebuy done");
    } });
    const sit = el("button", { class: "btn small", text: p.sitting_out ? "Sit in" : "Sit out",
      onclick: () => command({ kind: "sit_out", seat: p.seat, back: p.sitting_out }, "done") });
    const leave = el("button", { class: "btn small", text: "Leave", onclick: () => {
      if (confirm(`${p.name} leaves with ${fmt(p.stack)}?`)) command({ kind: "leave", seat: p.seat }, "left");
    } });
    cell.append(el("span", { class: "row", style: { justifyContent: "flex-end", flexWrap: "nowrap", gap: ".3em" } }, rebuy, sit, leave));
    return cell;
  }

  function seatLabel(s, seat) { return (s.seats[seat] && s.seats[seat].name) || `seat ${seat + 1}`; }

  /** Five-card draw: the draw-count form while someone is to draw, and five-card placeholders. */
  function renderDraw(s) {
    const game = s.draw_game;
    const drawing = !!game && s.phase === "playing" && game.to_draw !== null && game.to_draw !== undefined;
    $("form-draw").hidden = !drawing;
    if (drawing) {
      const most = game.rules.max_draw, count = $("draw-count");
      count.max = most;
      $("draw-label").textContent = `${seatLabel(s, game.to_draw)} exchanges (0–${most})`;
      if (document.activeElement !== count) count.value = s.pending_draw !== null && s.pending_draw !== undefined ? s.pending_draw : 0;
    }
    $("form-show").cards.placeholder = game ? "five cards, Jk for a joker" : "two cards, e.g. Jd Td";
  }

  function render(s) {
    state = s;
    wake(s);
    const toAct = s.to_act !== null && s.to_act !== undefined ? s.seats[s.to_act] : null;
    const game = s.draw_game;
    $("hand-no").textContent = s.hand_number ? `· hand ${s.hand_number}` : "";
    $("now").textContent = toAct && s.phase === "playing" ? `${toAct.name} to act` : game && s.phase === "playing" && game.to_draw !== null ? `${seatLabel(s, game.to_draw)} to draw` : { seating: "Waiting for the first dealer", settled: `Hand ${s.hand_number} is over`, ready: "Between hands", playing: s.street === "showdown" ? "Showdown" : `Waiting for the ${({ preflop: "flop", flop: "turn", turn: "river" })[s.street] || "cards"}` }[s.phase];
    renderDraw(s);
    const legal = (s.legal_actions || []).map((a) => a.action === "call" ? `call ${fmt(a.min_to)}` : (a.action === "bet" || a.action === "raise") ? `${a.action} ${fmt(a.min_to)}–${fmt(a.max_to)}` : a.action.replace("_", "-"));
    $("now-detail").textContent = [game ? [game.name, game.phase].filter(Boolean).join(" · ") : s.street ? s.street : "", legal.join(" · "), s.confirm_in !== null && s.confirm_in !== undefined ? `next hand in ${Math.ceil(s.confirm_in)} s` : ""].filter(Boolean).join(" — ");
    TT.fill($("now-board"), ...s.board.map((c) => card(c, "mini")));
    $("now-pot").textContent = s.pot_total ? `pot ${fmt(s.pot_total)}` : "";
    // The host's own warnings (a refused command) come only on the host's stream, never to the phones;
    // "not saving" is the banner under the header, not a warning in the list.
    TT.fill($("warnings"), ...(s.warnings || []).filter((w) => w.kind !== "storage").map((w) => el("li", { "data-kind": w.kind, text: w.kind === "rejected" ? `✖ refused: ${w.message}` : `⚠ ${w.message}` })));
    if (s.camera && !s.camera.ok) $("warnings").append(el("li", { text: `⚠ camera: ${s.camera.message || "no picture"}` }));

    const range = raiseRange(s);
    const call = (s.legal_actions || []).find((a) => a.action === "call");
    $("btn-call").textContent = call ? `CALL ${fmt(call.min_to)}` : "CHECK";
    $("btn-bet").textContent = range ? `${range[2].toUpperCase()} TO` : "BET/RAISE";
    const slider = $("amount-slider"), amount = $("amount");
    if (range) {
      slider.min = range[0]; slider.max = range[1]; slider.step = (s.blinds && s.blinds.big_blind) || 1;
      amount.min = range[0]; amount.max = range[1];
      const wanted = s.pending_bet !== null && s.pending_bet !== undefined ? s.pending_bet : range[0];
      if (document.activeElement !== amount) amount.value = wanted;
      slider.value = amount.value;
      $("amount-range").textContent = `${range[2]} to ${fmt(range[0])} … ${fmt(range[1])}${s.pending_bet ? ` · set: ${fmt(s.pending_bet)}` : ""}`;
    } else {
      $("amount-range").textContent = "no bet or raise possible now";
    }
    slider.disabled = !range;

    const seated = s.seats.filter((p) => p.name);
    const seatItems = seated.map((p) => [p.seat, `${p.seat + 1}. ${p.name}`]);
    document.querySelectorAll(".seat-select").forEach((sel) => options(sel, seatItems, true));
    const empty = s.seats.filter((p) => !p.name).map((p) => [p.seat, `seat ${p.seat + 1}`]);
    options($("empty-seats"), empty, true);
    $("form-seat").hidden = empty.length === 0;
    const correctables = s.board.map((c, i) => [`board:${i}`, `board ${i + 1} (${c})`]);
    for (const p of s.seats) p.hole.forEach((c, i) => correctables.push([`${p.seat}:${i}`, `${p.name} card ${i + 1} (${c})`]));
    options($("correct-target"), correctables.length ? correctables : [["board:0", "no card read yet"]], true);
    const markables = [0, 1, 2, 3, 4].map((i) => [`board:${i}`, `board ${i + 1}`]);
    for (const p of s.seats) if (p.in_hand) [0, 1].forEach((i) => markables.push([`${p.seat}:${i}`, `${p.name} card ${i + 1}`]));
    options($("mark-target"), markables, true);
    $("form-button").hidden = s.phase !== "seating";

    const rows = [el("tr", {}, el("th", { text: "Seat" }), el("th", { text: "Stack" }), el("th", { text: "" }))];
    for (const p of s.seats) {
      if (!p.name) continue;
      rows.push(el("tr", {}, el("td", { text: `${p.seat + 1}. ${p.name}${p.dealer ? " (D)" : ""}${p.state !== "playing" && p.state !== "waiting" ? ` · ${p.state.replace("_", " ")}` : ""}` }),
        el("td", { class: "num", text: fmt(p.stack) }), seatActions(p)));
    }
    TT.fill($("players"), ...rows);

    const b = s.blinds;
    $("clock-now").textContent = `level ${b.level + 1}/${b.levels}: ${fmt(b.small_blind)}/${fmt(b.big_blind)}${b.ante ? ` ante ${fmt(b.ante)}` : ""} · clock ${b.clock}${b.seconds_left !== null && b.level_seconds > 0 ? ` · ${TT.mmss(b.seconds_left)} left` : ""}`;
    options($("level-select"), Array.from({ length: b.levels }, (_, i) => [i, `level ${i + 1}`]), true);
  }

  const live = $("live");
  TT.follow(render, (mode) => {
    live.className = `live live-${mode === "live" ? "on" : mode}`;
    live.textContent = mode === "live" ? "live" : mode;
  }, { events: "/admin/events", state: "/admin/state" });
})();
