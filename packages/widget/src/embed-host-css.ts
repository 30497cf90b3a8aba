import { FULL_SCREEN } from './widget-dom.ts';

/**
 * The managed embed's stylesheet on the host page: the launcher, and the dialog that holds the
 * chat's frame. At full screen the launcher steps aside, and the dialog's edges (focusable spans
 * either side of the frame) take the focus that leaves the frame, to send it back in.
 */
export const EMBED_HOST_CSS = `
:host {
  all: initial !important;
  display: block !important;
  --accent: var(--careerbot-accent, #4f46e5);
  --accent-ink: var(--careerbot-accent-ink, #ffffff);
  font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif !important;
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; box-shadow: 0 0 0 5px #1c2430; }
.launcher {
  position: fixed; right: 20px; bottom: 20px; z-index: 2147483000;
  display: flex; align-items: center; gap: 8px; min-height: 48px; padding: 8px 16px 8px 8px;
  border: 0; border-radius: 999px; background: var(--accent); color: var(--accent-ink); cursor: pointer;
  box-shadow: 0 6px 20px rgba(0, 0, 0, 0.25); font: inherit; font-weight: 600;
}
.avatar { border-radius: 50%; background: #f4f6f9; flex: none; }
.dialog {
  position: fixed; right: 20px; bottom: 84px; z-index: 2147483001;
  width: 380px; height: min(640px, calc(100vh - 110px));
  border: 1px solid #d5dbe3; border-radius: 14px; box-shadow: 0 12px 40px rgba(0, 0, 0, 0.25); overflow: hidden; background: #ffffff;
}
iframe { display: block; width: 100%; height: 100%; border: 0; }
.edge { display: none; }
@media ${FULL_SCREEN} {
  .dialog { inset: 0; width: 100%; height: 100%; border-radius: 0; border: 0; }
  :host([data-open]) .launcher { display: none; }
  .edge { display: block; position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
}
`;
