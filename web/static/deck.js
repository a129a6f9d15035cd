/* The set-up page's deck teaching: which card to lay next, the card the camera took (keep it or
   take it again), the progress (kept on the table: a reload or a restart picks up where it
   stood), redo a card, then a check that reads any cards laid down. */
"use strict";

(() => {
  const { el } = TT;
  const $ = (id) => document.getElementById(id);
  if (!$("deck-panel")) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let busy = false, last = null;

  function showCheck(check) {
    if (!check) { $("deck-check-status").textContent = ""; TT.fill($("deck-check-cards")); return; }
    const down = check.face_down ? `, ${check.face_down} face down (not read)` : "";
    const profile = check.profile ? `with the deck taught (${check.profile} cards)` : "with no deck taught";
    $("deck-check-status").textContent = `${check.seen} card${check.seen === 1 ? "" : "s"} face up, ${check.read} read${down}, ${profile}.`;
    TT.fill($("deck-check-cards"), ...check.cards.map((c) => el("li", { class: c.card ? "ok" : "fix", "data-card": c.card || "" },
      el("b", { text: c.card || "?" }), el("span", { text: ` ${c.name}` }))));
  }

  function show(data) {
    last = data;
    for (const b of document.querySelectorAll("#deck-panel .demo-only")) b.hidden = !data.demo;
    $("deck-bar").max = data.total;
    $("deck-bar").value = data.done;
    const saved = data.saved ? ` The saved deck of ${data.saved} cards is ${data.in_use ? "in use" : "kept"}.` : "";
    $("deck-progress").textContent = data.complete ? `The whole deck is taught (${data.done} of ${data.total}).${saved}`
      : `${data.done} of ${data.total} cards taught.${saved}`;
    $("deck-note").hidden = !data.note;
    $("deck-note").textContent = data.note || "";
    const teaching = data.state === "teaching";
    $("deck-idle").hidden = teaching;
    $("deck-start").textContent = data.done && !data.complete ? `Go on teaching (${data.done} of ${data.total} kept)` : data.complete ? "Teach again (redo cards)" : "Teach the deck";
    $("deck-teaching").hidden = !teaching;
    const next = data.next;
    $("deck-ask").textContent = !next ? "Every card is taught: the reader uses this deck now. Check it below, or tap a card to take it again."
      : data.pending ? `Is this the ${data.pending.name}?` : `Lay the ${next.name} (${next.card}) face up, alone, in the middle of the table, then tap Capture.`;
    $("deck-ask").dataset.card = next ? next.card : "";
    $("deck-capture-row").hidden = !next;
    $("deck-capture").disabled = !next || !!data.pending;
    $("deck-lay").disabled = !next || !!data.pending;
    const p = data.pending;
    $("deck-pending").hidden = !p;
    $("deck-pending").style.display = p ? "flex" : "none";
    if (p) {
      const src = `/admin/setup/deck/crop.jpg?n=${p.crop}`;
      if (!$("deck-crop").src.endsWith(src)) $("deck-crop").src = src;
      $("deck-verdict").textContent = p.agrees ? `The camera took the ${p.name}: the reader alone reads it so too.`
        : p.read ? `The camera took a card the reader alone reads as the ${p.read_name}: is it really the ${p.name}? Keep it if it is (teaching it is what this is for), else take it again.`
        : `The camera took a card the reader alone cannot name: keep it if it is the ${p.name}.`;
    }
    TT.fill($("deck-cards"), ...data.enrolled.map((card) => el("button", { class: "btn", "data-redo": card, text: card })));
    showCheck(data.check);
  }

  async function post(url, body) {
    if (busy) return null;
    busy = true;
    try {
      const r = await fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" }, body: JSON.stringify(body || {}) }).catch(() => null);
      const data = r ? await r.json().catch(() => ({ ok: false })) : { ok: false, error: "the table does not answer" };
      if (!data.ok) { TT.flash(data.error || "refused", false); return null; }
      return data;
    } finally { busy = false; }
  }

  async function step(name, body) {
    const data = await post(`/admin/setup/deck/${name}`, body);
    if (data) show(data);
    return data;
  }

  $("deck-start").addEventListener("click", () => step("start"));
  $("deck-stop").addEventListener("click", () => step("stop"));
  $("deck-restart").addEventListener("click", () => { if (confirm("Forget every card taught so far?")) step("restart"); });
  $("deck-capture").addEventListener("click", () => step("capture"));
  $("deck-keep").addEventListener("click", () => step("keep"));
  $("deck-retake").addEventListener("click", () => step("retake"));
  $("deck-lay").addEventListener("click", () => step("lay"));
  $("deck-cards").addEventListener("click", (e) => {
    const card = e.target.dataset && e.target.dataset.redo;
    if (card) step("redo", { card });
  });
  $("deck-check").addEventListener("click", async () => {
    $("deck-check-status").textContent = "Reading…";
    const data = await post("/admin/setup/deck/check");
    if (data) showCheck(data); else showCheck(last && last.check);
  });
  $("deck-lay-check").addEventListener("click", async () => {
    const data = await post("/admin/setup/deck/lay-check");
    if (data) TT.flash(`Laid ${data.laid.join(" ")} on the demo's table: tap Read them.`, true);
  });

  async function poll() {
    if (!busy) {
      const data = await TT.getJSON("/admin/setup/deck.json");
      if (data && data.ok && !busy) show(data);
    }
    setTimeout(poll, 1500);
  }
  poll();
})();
