/* The set-up page: the camera's picture a few times a second and the aim advice measured on the
   Pi; in the demo, buttons that move the synthetic camera. */
"use strict";

(() => {
  const { el, _ } = TT;
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const PICTURE_MS = 350, ADVICE_MS = 700;
  let position = null;

  function showAdvice(data) {
    const items = data.advice || [];
    $("aim-status").textContent = !data.camera ? _("No camera on this table: there is nothing to aim.")
      : data.frame === null ? _("Waiting for the camera's first picture…")
      : _("Measured on frame {frame}.", { frame: data.frame });
    TT.fill($("advice"), ...items.map((a) => el("li", { class: a.ok ? "ok" : "fix", "data-topic": a.topic },
      el("span", { class: "mark", text: a.ok ? "✓" : "✗" }), el("span", { text: " " + a.text }))));
    if (data.position) {
      position = data.position;
      const p = data.position;
      const rig = { cm: Math.abs(Math.round(p.lift * 100)), tilt: p.tilt, blur: p.blur };
      $("rig-position").textContent = p.lift >= 0 ? _("Camera raised {cm} cm, tilted {tilt}°, blur {blur} px.", rig) : _("Camera lowered {cm} cm, tilted {tilt}°, blur {blur} px.", rig);
    }
  }

  async function advice() {
    const data = await TT.getJSON("/admin/setup/aim.json");
    if (data) showAdvice(data);
    setTimeout(advice, ADVICE_MS);
  }

  function picture() {
    const img = $("frame"), next = new Image();
    next.onload = () => { img.src = next.src; setTimeout(picture, PICTURE_MS); };
    next.onerror = () => setTimeout(picture, 1000);
    next.src = `/admin/camera/frame.jpg?t=${Date.now()}`;
  }

  async function move(body) {
    const r = await fetch("/admin/setup/camera", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    const data = r ? await r.json().catch(() => ({ ok: false })) : { ok: false, error: _("the table does not answer") };
    if (!data.ok) TT.flash(data.error || _("refused"), false);
    else showAdvice({ ...(await TT.getJSON("/admin/setup/aim.json") || {}), position: data.position });
  }

  for (const button of document.querySelectorAll("[data-move]")) {
    button.addEventListener("click", () => {
      if (!position) return;
      const key = button.dataset.move, by = Number(button.dataset.by);
      const value = Math.round((position[key] + by) * 100) / 100;
      move({ [key]: value });
    });
  }
  const reset = $("rig-reset");
  if (reset) reset.addEventListener("click", () => move({ lift: 0, tilt: 0, blur: 0 }));

  advice();
  picture();
})();
