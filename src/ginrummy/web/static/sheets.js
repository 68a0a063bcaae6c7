// The printable sheets' screen-only controls (served as a file: the pages allow no inline script).
"use strict";
// Send only the rules that differ from the preset, so the address stays short and shareable.
document.querySelectorAll("form[data-rules-form]").forEach((form) => {
  form.addEventListener("submit", () => {
    form.querySelectorAll("[data-default]").forEach((el) => {
      if (el.value === el.dataset.default) el.disabled = true;
    });
  });
  const preset = form.querySelector("select[name=preset]");
  if (preset) {
    preset.addEventListener("change", () => {
      const extra = form.dataset.keep ? "&" + form.dataset.keep : "";
      location.search = "?preset=" + encodeURIComponent(preset.value) + extra;
    });
  }
  form.querySelectorAll("button[data-print]").forEach((b) => b.addEventListener("click", () => window.print()));
});
