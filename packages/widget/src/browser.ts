/**
 * The self-hosted Career Bot widget for a classic script tag: it defines
 * `window.CareerBotWidget = { mount, buildSystemPrompt }`.
 */
import { buildSystemPrompt, mount, rememberScriptOrigin } from './self-hosted.ts';

rememberScriptOrigin((document.currentScript as HTMLScriptElement | null)?.src);

(window as unknown as { CareerBotWidget: unknown }).CareerBotWidget = Object.freeze({ mount, buildSystemPrompt });
