/* Poker dice: shows the referee's state, sends the moves, dice entered by tapping faces.
   Every phone at the table polls the state (a side game: a second is quick enough). */
"use strict";

(() => {
  const { el, fill , _, ngettext } = TT;
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const FACES = [["N", "9 noir"], ["R", "10 rouge"], ["V", "Valet"], ["D", "Dame"], ["K", "Roi"], ["A", "As"]];
  // An announcement by its French name (the rules' own), glossed in the page's language when it is not French.
  const named = (a) => (TT.language === "fr" ? a.french : `${a.french} (${a.english})`);
  const RED = new Set(["R"]);
  let state = null, list = [], tapped = [], version = -1, picked = new Set();

  const flash = TT.flash;

  function die(face, extra, onclick) {
    const title = (FACES.find(([f]) => f === face) || [face, face])[1];
    return el("button", { type: "button", class: `die ${RED.has(face) ? "red" : ""} ${extra || ""}`, title, "aria-label": title, "data-face": face, onclick }, face);
  }

  async function move(path, body) {
    let data;
    try {
      const r = await fetch(`/api/dice/${path}`, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body || {}),
      });
      data = await r.json();
    } catch (e) {
      flash(_("the table does not answer: check the Wi-Fi"), false);
      return null;
    }
    fill($("suggestions"));
    if (!data.ok) {
      flash(data.error, false);
      if (data.suggestions && data.suggestions.length) {
        fill($("suggestions"), el("span", { class: "muted", text: "Did you mean:" }),
          ...data.suggestions.slice(0, 4).map((s) => el("button", { type: "button", class: "btn small", text: s, onclick: () => announce(s) })));
      }
      return null;
    }
    render(data.state);
    return data;
  }

  /* ------------------------------------------------------------ moves */
  function announce(text) {
    const body = { announcement: text };
    if (state && !state.current && !state.direction) body.direction = document.querySelector('input[name="direction"]:checked').value;
    if (tapped.length && /full/i.test(text) && /(petit|grand)/i.test(text)) body.visible = tapped.join(" ");
    if ($("tour-check").checked) body.tour_de_poker = true;
    return move("announce", body).then((d) => {
      if (d) { $("announce-text").value = ""; $("tour-check").checked = false; if (body.visible) clearDice(); flash(TT.language === "fr" ? d.result.french : `${d.result.french} — ${d.result.english}`, true); }
    });
  }

  function clearDice() { tapped = []; drawTapped(); }
  function drawTapped() {
    fill($("tapped"), ...tapped.map((f, i) => die(f, "", () => { tapped.splice(i, 1); drawTapped(); })),
      tapped.length ? null : el("span", { class: "muted", text: _("no dice yet") }));
    $("btn-challenge").disabled = tapped.length !== 5 || !state || !state.current;
  }

  fill($("faces"), ...FACES.map(([f]) => die(f, "", () => { if (tapped.length < 5) { tapped.push(f); drawTapped(); } })));
  $("btn-clear").addEventListener("click", clearDice);
  $("btn-challenge").addEventListener("click", async () => {
    const d = await move("challenge", { roll: tapped.join(" ") });
    if (d) clearDice();
  });
  $("btn-superieur").addEventListener("click", () => announce("Supérieur"));
  $("picker").addEventListener("change", (e) => { if (e.target.value) announce(e.target.value); e.target.value = ""; });
  $("form-announce").addEventListener("submit", (e) => { e.preventDefault(); const t = $("announce-text").value.trim(); if (t) announce(t); });
  $("btn-undo").addEventListener("click", () => move("undo").then((d) => d && flash(_("last move taken back"), true)));
  $("btn-restart").addEventListener("click", () => { if (confirm(_("Start a new series (the tally starts again)?"))) { $("setup").hidden = false; } });
  $("form-new").addEventListener("submit", (e) => {
    e.preventDefault();
    move("new", { players: new FormData(e.target).get("players"), track_throws: $("track-throws").checked });
  });

  /* ------------------------------------------------------------ the throwing phase (followed series) */
  function pickedDice() { return [...picked].sort((a, b) => a - b); }
  function afterThrowMove(d, text) { if (d) { picked = new Set(); drawNumbers(); flash(text, true); } }
  $("btn-throw").addEventListener("click", () => {
    const dice = pickedDice();
    move("throw", { dice, under_cup: false }).then((d) => afterThrowMove(d, _("thrown on the table: {dice}", { dice: dice.join(", ") })));
  });
  $("btn-throw-cup").addEventListener("click", () => {
    const dice = pickedDice();
    move("throw", { dice, under_cup: true }).then((d) => afterThrowMove(d, _("thrown under the cup: {dice}", { dice: dice.join(", ") })));
  });
  $("btn-show").addEventListener("click", () => {
    const dice = pickedDice();
    move("show", { dice }).then((d) => afterThrowMove(d, _("shown: {dice}", { dice: dice.join(", ") })));
  });
  $("btn-look").addEventListener("click", () => move("look").then((d) => d && flash(_("{name} looked under the cup: a throw must follow", { name: d.state.to_act }), true)));
  $("btn-tour").addEventListener("click", () => move("tour-de-poker").then((d) => d && flash(ngettext("Tour de Poker: {n} throw, all five dice first", "Tour de Poker: {n} throws, all five dice first", d.result.throws), true)));

  function drawNumbers() {
    const t = state && state.throwing;
    if (!t) return;
    const hidden = new Set(t.hidden);
    const thrown = new Set(t.current ? t.current.throws.flatMap((x) => x.dice) : []);
    fill($("dice-numbers"), ...[0, 1, 2, 3, 4].map((n) => el("button", {
      type: "button", class: `die ${picked.has(n) ? "picked" : ""}`, "aria-pressed": picked.has(n) ? "true" : "false",
      title: `${_("die {n}", { n })}: ${hidden.has(n) ? _("under the cup") : _("on the table")}${thrown.has(n) ? _(", thrown this turn") : ""}`,
      onclick: () => { if (picked.has(n)) picked.delete(n); else picked.add(n); drawNumbers(); },
    }, `${n}`, el("span", { class: "where", text: hidden.has(n) ? _("cup") : _("table") }))));
    const none = picked.size === 0;
    for (const id of ["btn-throw", "btn-throw-cup", "btn-show"]) $(id).disabled = none;
  }

  function phaseText(p) {
    const parts = [];
    if (p.looked && !p.shown.length) parts.push(_("looked under the cup"));
    if (p.shown.length) parts.push(_("showed {dice}", { dice: p.shown.join(", ") }));
    if (p.tour_de_poker) parts.push(_("played a Tour de Poker"));
    for (const x of p.throws) parts.push(x.under_cup ? _("threw {dice} under the cup", { dice: x.dice.join(", ") }) : _("threw {dice} on the table", { dice: x.dice.join(", ") }));
    return parts.join("; ") || _("nothing yet");
  }
  $("btn-rolloff").addEventListener("click", () => {
    const dice = {};
    for (const sel of document.querySelectorAll("#rolloff select")) if (sel.value) dice[sel.dataset.name] = sel.value;
    move("roll-off", { dice }).then((d) => {
      if (!d) return;
      flash(d.result.length === 1 ? _("{name} starts", { name: d.result[0] }) : _("tie between {names}: throw again", { names: d.result.join(", ") }), true);
    });
  });

  /* ------------------------------------------------------------ rendering */
  function annText(a) { return a ? a.french : "—"; }

  function render(s) {
    state = s;
    version = s.version;
    $("setup").hidden = s.active;
    if (!s.active) { $("table-panel").hidden = true; $("moves").hidden = true; $("outcome").hidden = true; return; }
    $("table-panel").hidden = false;
    $("moves").hidden = false;
    $("game-no").textContent = `· ${_("game {number}", { number: s.game })}`;
    $("direction").textContent = s.direction === "left" ? _("← left") : s.direction === "right" ? _("right →") : _("direction: opener's choice");
    fill($("current"), s.current ? annText(s.current) : _("No announcement yet"),
      s.current ? el("span", { class: "en", text: TT.language === "fr" ? _("from {name}", { name: s.announcer }) : `${s.current.english} — ${_("from {name}", { name: s.announcer })}` }) : null);
    $("legal").textContent = s.must_challenge ? _("{name} must lift the cup (a Poker d'As in one throw)", { name: s.to_act })
      : s.legal_next ? _("Supérieur now: {announcement}", { announcement: named(s.legal_next) }) : "";
    const tour = $("tour");
    tour.hidden = s.tour_de_poker_throws === null || s.tour_de_poker_throws === undefined;
    tour.className = "flash ok";
    tour.textContent = tour.hidden ? "" : ngettext("Tour de Poker: {n} throw", "Tour de Poker: {n} throws", s.tour_de_poker_throws);
    fill($("players"), ...s.players.map((p) => el("li", { class: p.to_act ? "to-act" : "" },
      el("span", { class: "who", text: `${p.name}${p.to_act ? _(" — to play") : ""}${p.name === s.announcer ? _(" (announced)") : ""}` }),
      el("span", { class: "num", text: ngettext("{n} loss", "{n} losses", p.points) }))));
    $("announce-title").textContent = _("{name} announces", { name: s.to_act });
    $("direction-choice").hidden = !!s.current || !!s.direction || s.players.length < 3;
    $("tour-choice").hidden = !(s.current && s.current.category === "poker");
    $("btn-superieur").disabled = s.must_challenge;
    const current = s.current ? list.findIndex((a) => a.french === s.current.french) : -1;
    const higher = list.filter((a, i) => i > current || (s.current && a.category === "poker" && s.current.category === "poker" && a.french === s.current.french));
    fill($("picker"), el("option", { value: "", text: s.must_challenge ? _("— challenge only —") : _("pick an announcement…") }),
      ...higher.map((a) => el("option", { value: a.french, text: named(a) })));
    $("picker").disabled = s.must_challenge;

    const out = $("outcome"), last = s.last_challenge;
    out.hidden = !last;
    if (last) {
      fill(out, el("h2", { text: _("Game {number}: the cup is lifted", { number: last.game }) }),
        el("div", { class: "outcome-line" }, _("{challenger} did not believe {announcer}: ", { challenger: last.challenger, announcer: last.announcer }),
          el("span", { class: last.lie ? "lie" : "truth", text: last.lie ? _("it was a lie") : _("no lie") })),
        el("div", { class: "row", style: { margin: ".4em 0" } }, ...last.roll.map((f) => die(f, "small"))),
        el("div", { class: "muted", text: _("announced {announced}; the dice show {actual}", { announced: last.announced.french, actual: named(last.actual) }) }),
        el("div", { class: "outcome-line", text: _("{name} loses and starts game {number}", { name: last.loser, number: s.game }) }));
    }
    fill($("history"), ...(s.history.length ? s.history.map((t) => el("li", {},
      el("strong", { text: t.player }), ` ${_("announced {announcement}", { announcement: t.announcement.french })}`,
      t.tour_de_poker_throws ? el("span", { class: "muted", text: ` ${ngettext("(Tour de Poker, {n} throw)", "(Tour de Poker, {n} throws)", t.tour_de_poker_throws)}` }) : null))
      : [el("li", { class: "muted", text: _("No announcement yet in this game.") })]));
    fill($("standings"), el("tr", {}, el("th", { text: _("Player") }), el("th", { text: _("Losses") })),
      ...s.standings.map((r) => el("tr", {}, el("td", { text: r.name }), el("td", { class: "num", text: r.points }))));
    const rolloff = s.game === 1 && !s.history.length;
    $("rolloff-panel").hidden = !rolloff;
    if (rolloff && !document.querySelector("#rolloff select")) {
      fill($("rolloff"), ...s.players.map((p) => el("label", { class: "row", style: { margin: ".2em 0" } },
        el("span", { text: p.name, style: { minWidth: "6em" } }),
        el("select", { "data-name": p.name, style: { width: "auto" } }, el("option", { value: "", text: "—" }),
          ...FACES.map(([f, name]) => el("option", { value: f, text: `${f} (${name})` }))))));
    }
    const followed = !!s.throwing;
    $("throws-panel").hidden = !followed;
    if (followed) {
      $("throws-title").textContent = _("{name} throws", { name: s.to_act });
      $("btn-tour").hidden = s.tour_de_poker_throws === null || s.tour_de_poker_throws === undefined;
      fill($("phases"), ...(s.throwing.phases.length ? s.throwing.phases.map((p) => el("li", {},
        el("strong", { text: p.player }), ` ${phaseText(p)}`))
        : [el("li", { class: "muted", text: _("Nothing thrown yet: {name} opens with all five dice.", { name: s.to_act }) })]));
      drawNumbers();
    }
    drawTapped();
  }

  async function refresh() {
    const s = await TT.getJSON("/api/dice");
    if (s && s.version !== version) render(s);
    setTimeout(refresh, 1500);
  }
  TT.getJSON("/api/dice/announcements").then((a) => { list = a || []; if (state) render(state); });
  drawTapped();
  refresh();
})();
