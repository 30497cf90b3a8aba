import { FULL_SCREEN } from './widget-dom.ts';

/**
 * The widget's stylesheet, adopted by its shadow root. `:host` resets everything the page
 * could pass down by inheritance; the page's own rules cannot match inside the shadow root.
 * Below 480 px the dialog takes the whole screen.
 */
export const WIDGET_CSS = `
:host {
  all: initial !important;
  display: block !important;
  --accent: var(--careerbot-accent, #4f46e5);
  --accent-ink: var(--careerbot-accent-ink, #ffffff);
  --ink: #1c2430;
  --muted: #566173;
  --line: #d5dbe3;
  --paper: #ffffff;
  --wash: #f4f6f9;
  --danger: #b3261e;
  font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif !important;
  color: var(--ink) !important;
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
button, input, textarea { font: inherit; color: inherit; }
:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; box-shadow: 0 0 0 5px #1c2430; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.launcher {
  position: fixed; right: 20px; bottom: 20px; z-index: 2147483000;
  display: flex; align-items: center; gap: 8px; min-height: 48px; padding: 8px 16px 8px 8px;
  border: 0; border-radius: 999px; background: var(--accent); color: var(--accent-ink); cursor: pointer;
  box-shadow: 0 6px 20px rgba(0, 0, 0, 0.25); font-weight: 600;
}
.avatar { border-radius: 50%; background: var(--wash); flex: none; }
.dialog {
  position: fixed; right: 20px; bottom: 84px; z-index: 2147483001;
  display: flex; flex-direction: column; width: 380px; max-height: min(640px, calc(100vh - 110px));
  background: var(--paper); border: 1px solid var(--line); border-radius: 14px;
  box-shadow: 0 12px 40px rgba(0, 0, 0, 0.25); overflow: hidden;
}
.header { display: flex; align-items: center; gap: 10px; padding: 12px 14px; background: var(--accent); color: var(--accent-ink); }
.who { flex: 1; min-width: 0; }
.title { margin: 0; font-size: 16px; font-weight: 700; overflow-wrap: anywhere; }
.headline { margin: 0; font-size: 13px; opacity: 0.95; overflow-wrap: anywhere; }
.close {
  width: 40px; height: 40px; border: 0; border-radius: 50%; background: rgba(255, 255, 255, 0.18);
  color: var(--accent-ink); font-size: 24px; line-height: 1; cursor: pointer;
}
.notice { margin: 10px 14px 0; font-size: 13px; color: var(--muted); }
.key { padding: 10px 14px 0; }
.key:empty { display: none; }
label { display: block; font-weight: 600; font-size: 13px; margin: 6px 0 4px; }
input, textarea {
  width: 100%; padding: 8px 10px; background: var(--paper); border: 1px solid #8a94a3; border-radius: 8px;
}
textarea { resize: none; }
.hint { margin: 4px 0 0; font-size: 12px; color: var(--muted); }
.log {
  flex: 1; min-height: 140px; overflow-y: auto; display: flex; flex-direction: column; gap: 8px;
  padding: 12px 14px; background: var(--wash); margin-top: 10px;
}
.empty { margin: 0; color: var(--muted); }
.bubble { max-width: 85%; padding: 8px 12px; border-radius: 14px; white-space: pre-wrap; overflow-wrap: anywhere; }
.bubble.user { align-self: flex-end; background: var(--accent); color: var(--accent-ink); }
.bubble.assistant { align-self: flex-start; background: var(--paper); border: 1px solid var(--line); white-space: normal; }
.bubble.assistant p, .bubble.assistant ul, .bubble.assistant ol, .bubble.assistant pre { margin: 4px 0; }
.bubble.assistant ul, .bubble.assistant ol { padding-left: 20px; }
.bubble.assistant pre { white-space: pre-wrap; }
.bubble.waiting { color: var(--muted); font-style: italic; }
.problem:not(:empty) {
  margin: 8px 14px 0; padding: 8px 10px; border: 1px solid var(--danger); border-radius: 8px;
  color: var(--danger); background: #fdf0ef; font-size: 14px;
}
.suggestions { display: flex; flex-wrap: wrap; gap: 6px; padding: 8px 14px 0; }
.chip, .plain {
  padding: 6px 12px; border: 1px solid #8a94a3; border-radius: 999px; background: var(--paper);
  cursor: pointer; font-size: 13px; text-align: left;
}
.start-over { display: block; margin: 6px 12px 0 auto; }
[aria-disabled='true'] { opacity: 0.55; cursor: not-allowed; }
.lead { margin: 8px 14px 0; padding: 8px 10px; border: 1px solid var(--line); border-radius: 8px; font-size: 14px; }
.lead p { margin: 0 0 4px; }
.row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.row input { flex: 1 1 160px; width: auto; }
.compose { display: flex; gap: 8px; align-items: flex-end; padding: 10px 14px 14px; }
.send {
  min-height: 40px; padding: 8px 14px; border: 0; border-radius: 8px; background: var(--accent);
  color: var(--accent-ink); font-weight: 600; cursor: pointer;
}
@media ${FULL_SCREEN} {
  .dialog { inset: 0; width: 100%; max-height: none; height: 100%; border-radius: 0; border: 0; }
  :host([data-open]) .launcher { display: none; }
}
:host([data-framed]) .dialog { inset: 0; width: 100%; max-height: none; height: 100%; border-radius: 0; border: 0; box-shadow: none; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;
