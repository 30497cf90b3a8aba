/**
 * The self-hosted widget in front of the owner's runtime: the bot's look from the runtime's
 * /config, each question with the conversation so far to its /chat (the reply streams in), the
 * e-mail to its /lead. The page holds no context, token or key: the runtime does.
 */
import { LEAD_AFTER_REPLIES, renderChatWidget, type MountedWidget } from './chat-widget.ts';
import { lookFromConfig, lookFromOptions } from './config-look.ts';
import type { RuntimeOptions } from './options.ts';
import { runtimeClient } from './runtime-client.ts';
import { tabSessionId } from './tab-session.ts';

export const mountWithRuntime = (element: HTMLElement | null | undefined, options: RuntimeOptions): MountedWidget => {
  if (options.context !== undefined || options.sendMessage !== undefined || options.dashboard !== undefined) {
    throw new TypeError('careerbot mount: with runtimeUrl, leave out context, sendMessage and dashboard: your runtime holds them');
  }
  const runtimeUrl = new URL(options.runtimeUrl, location.href).toString().replace(/\/+$/, '');
  const runtime = runtimeClient(runtimeUrl);
  const transcriptKey = `careerbot:runtime:${runtimeUrl}`;
  const sessionId = tabSessionId(`${transcriptKey}:session`);

  const widget = renderChatWidget({
    look: lookFromOptions(options, options.name?.trim() || 'Career bot'),
    transcriptKey,
    container: element ?? document.body,
    answer: (question, turns, _credentials, signal) => runtime.chat(sessionId, [...turns, { role: 'user', content: question }], signal),
    lead: options.captureLead ? { afterReplies: LEAD_AFTER_REPLIES, submit: (email) => runtime.lead(sessionId, email) } : undefined,
  });

  void runtime.config().then((answer) => {
    if (answer.found) widget.setLook(lookFromConfig(answer.config, options, runtimeUrl));
    else if (answer.reason === 'bot_not_found') {
      console.warn('[careerbot] the runtime says this bot is not available (switched off, or its token revoked): the chat widget is not shown.');
      widget.destroy();
    } else console.warn(`[careerbot] the runtime at ${runtimeUrl} did not answer: the widget shows what its options give.`);
  });
  return widget;
};
