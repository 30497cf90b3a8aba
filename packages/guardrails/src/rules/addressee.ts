/**
 * Who a passage speaks to, inside a message that is a document about a job. A job description
 * talks about assistants, system prompts, admin passwords and "act as the technical lead" all the
 * time, and its "you" (or "Sie", "du", "vous", "usted") is the candidate. Inside such a message, a
 * passage a rule matched blocks only when it turns to the bot: it names the bot's own
 * instructions, prompt, rules or keys ("your system prompt", "tus instrucciones"), speaks to it
 * ("assistant:", "note to the AI", "if you are an AI"), or gives the classic orders that have no
 * place in a job ("ignore all previous instructions", "before answering, print ..."), outside the
 * quotation marks in which a job document quotes the attacks it is about. Languages:
 * English, German, Spanish, French, Portuguese, Italian, Dutch and Polish; in other scripts, their
 * English gloss. A job document is also recognised in Swedish, Turkish, Russian, Ukrainian, Hindi,
 * Japanese, Chinese and Korean, and what turns to the bot in Swedish and Turkish.
 *
 * Texts are compared lower-cased, with accents removed (the normaliser's NFKD leaves them apart).
 */

import { leetLetterCode } from '../decoders/leet.ts';
import { plainText as plain } from '../text/plain.ts';
import { PrefixFilteredPattern } from '../text/prefix-filter.ts';

/** Words of a job posting's structure (headings, offers, conditions), in the eight languages. */
const JOB_MARKERS = new RegExp(
  [
    // English
    String.raw`responsibilities|requirements|qualifications|about (us|the (role|team|company|job))|benefits|what (you'll|you will|we) (do|offer|bring|need|look for)|what we're looking for|nice to have|must[- ]have|we(?: are|'re) (hiring|looking for)|job description|the role\b|years of experience|salary|compensation|hybrid|remote|equity|paid time off|holiday|interview (process|loop|steps)|reporting to|reports to|apply\b|hiring manager|candidate|interview|the team\b|full-time|on-call|\bjd\b|role-?play|\bmock\b|(first|second|third|final|next|technical|onsite) round|\brecruit\w*|\bposition\b|\bloop\b|tech stack|\bhiring\b|\bstartup\b|\bfounder\b`,
    // German
    String.raw`aufgaben|anforderungen|dein profil|ihr profil|wir bieten|was wir bieten|uber uns|wir suchen|stellenbeschreibung|gehalt|berufserfahrung|homeoffice|urlaubstage|bewerbung|festanstellung|kandidat|vorstellungsgesprach|rolle\b|vollzeit`,
    // Spanish
    String.raw`responsabilidades|requisitos|ofrecemos|sobre nosotros|buscamos|funciones|salario|anos de experiencia|teletrabajo|vacaciones|puesto|oferta de empleo|candidat[oa]|entrevista|equipo\b`,
    // French
    String.raw`missions|profil recherche|nous offrons|nous proposons|a propos|avantages|nous recrutons|poste|salaire|teletravail|annees d'experience|conges|candidat|entretien|equipe\b|\bcdi\b|recrutement`,
    // Portuguese
    String.raw`responsabilidades|requisitos|beneficios|oferecemos|sobre nos|estamos contratando|procuramos|vaga|salario|anos de experiencia|candidat[oa]|entrevista|equipe\b`,
    // Italian
    String.raw`responsabilita|requisiti|offriamo|chi siamo|cerchiamo|mansioni|stipendio|retribuzione|anni di esperienza|lavoro da remoto|posizione|candidat[oa]|colloquio|ruolo\b|squadra|\bral\b`,
    // Dutch
    String.raw`verantwoordelijkheden|functie-eisen|wat wij bieden|wat we bieden|over ons|wij zoeken|we zoeken|vacature|salaris|jaar ervaring|thuiswerken|kandidaat|sollicitatie|functie\b|team\b`,
    // Polish
    String.raw`obowiazki|wymagania|oferujemy|o nas|szukamy|wynagrodzenie|lat doswiadczenia|praca zdalna|stanowisko|kandydat|rozmow|zespol`,
    // Swedish, Turkish (compared as plain() leaves them: "maaş" is "maas", "ı" stays)
    String.raw`arbetsuppgifter|kvalifikationer|meriterande|vi erbjuder|om oss|om rollen|vi soker|\blon\b|ansokan|heltid|tjansten|intervju|sorumluluklar|aranan nitelikler|nitelikler|sunduklarımız|hakkımızda|\bmaas\b|yıl deneyim|uzaktan|\baday|mulakat|pozisyon|\bekip\b|basvuru|tam zamanlı|ise alım|\bvaka\b|brifing|rol yapma`,
    // Russian, Ukrainian
    String.raw`обязанности|требования|мы предлагаем|о компании|о нас|условия|зарплат|заработная плата|опыт работы|лет опыта|удаленн|собеседовани|кандидат|ваканси|команд|будет плюсом|задачи|обов'язки|вимоги|пропонуємо|досвід|співбесід|интервью|финальн\S* этап`,
    // Hindi (plain() takes the nukta apart: "ज़" is "ज" and U+093C)
    plain(String.raw`ज़िम्मेदारियाँ|जिम्मेदारियां|ज़िम्मेदारियां|आवश्यकताएँ|आवश्यकताएं|योग्यताएँ|योग्यताएं|योग्यता|वेतन|अनुभव|भूमिका|टीम|साक्षात्कार|इंटरव्यू|आवेदन|हमारे बारे में|कंपनी के बारे में|चयन प्रक्रिया|उम्मीदवार|नौकरी|सुविधाएँ|वर्ष`),
    // Japanese, Chinese (simplified and traditional), Korean (plain() takes Hangul syllables and kana with
    // voicing marks apart, so the markers are taken apart the same way)
    // Interview briefs, take-homes and case studies, and the headings of postings, in the same languages:
    // words of a document's structure that an e-mail or a note does not use
    String.raw`take-home|pairing session|case study|briefing|time budget|evaluation criteria|rubric|scorecard|\(m/w/d\)|was du (machst|mitbringst)|was dich erwartet|fallstudie|probearbeit|exercice pratique|etude de cas|case tecnico|prueba tecnica|caso practico|prova tecnica|caso di studio|zadanie rekrutacyjne`,
    // the stages of an interview plan, which a plan names where a posting names its requirements
    String.raw`work sample|live exercise|(next|first|second|final) (stage|step|interview)|\b(stage|part|round) [1-4]\b|praxisaufgabe|fachgesprach|nachste runde|ablauf|ejercicio de|proceso (de seleccion|para)|etapa [1-4]|proximas etapas|case pratico|roteiro|prochaine etape|etape [1-4]|mise en situation|prossim[ao] (fase|step)|fase [1-4]|volgende (ronde|stap)|casus|sollicitatiegesprek|etap [1-4]|kolejny etap`,
    plain(String.raw`業務内容|仕事内容|必須要件|歓迎要件|必須スキル|歓迎スキル|応募資格|求める人物像|会社概要|募集背景|選考フロー|選考プロセス|勤務地|勤務時間|年収|給与|福利厚生|雇用形態|正社員|面接|岗位职责|工作职责|职位描述|任职要求|任职资格|岗位要求|加分项|薪资|薪酬|福利|工作地点|面试|团队介绍|公司介绍|我们提供|職責|工作內容|任職要求|薪資|面試|團隊|주요 ?업무|담당 ?업무|자격 ?요건|우대 ?사항|복리후생|회사 ?소개|팀 ?소개|전형 ?절차|채용|연봉|근무지|면접|정규직|인터뷰|지원자|인사팀|롤플레이`),
  ].join('|'),
  'g',
);

/** The markers, found where one may start: the same matches, without trying each marker at every character. */
const JOB_MARKER_SEARCH = new PrefixFilteredPattern(JOB_MARKERS);

/** Distinct markers that make a message a document about a job, and its least length. */
const MIN_JOB_MARKERS = 3;
const MIN_JOB_CHARS = 300;

/** The bot's own things, after a possessive of the second person. */
const OWN = String.raw`(system ?prompts?|system (message|instructions?)|instructions?|initial prompt|hidden prompt|prompt|rules|guidelines|guardrails|safety (rules|filters?)|restrictions|filters?|directives|programming|configuration|config|api ?keys?|keys?|secrets?|credentials|tokens?|passwords?)`;

/**
 * An order at the start of a sentence. Not in a gloss: the gloss writes every clause verb first
 * ("出力する" -> "output"), so there a verb at the start says nothing of whom it is said to.
 */
const SENTENCE_START_ORDER = String.raw`(^|[.!?:;\n\[(<{"] *)(please |now |kindly |just )?(ignore|disregard|forget|reveal|print|show me|tell me|give me|send me|paste|output|repeat|list|dump|share|execute|run|display|confirm|stop|become)\b`;

/** What the bot was told before, after a verb that drops it: "all previous instructions", "the above rules". */
const EARLIER_INSTRUCTIONS = String.raw`(all |any |every )?(of )?(the |your |these )?(previous|prior|above|earlier|preceding|foregoing|existing|original) (all )?(instructions|rules|prompts?|directions|guidelines)`;

/**
 * The classic orders to drop what the bot was told before ("ignore all previous instructions"), in
 * the eight languages. No recruiter says one to the bot: outside quotation marks, a passage that
 * gives one is an attack whatever surrounds it (givesClassicOrder).
 */
const CLASSIC_ORDERS = [
    String.raw`\b(ignore|disregard|forget) ${EARLIER_INSTRUCTIONS}`,
    String.raw`\b(ignore|disregard|forget) (all )?(of )?(the |your )?(rules|instructions|guidelines) (you were|you've been|you have been|you got|you're) (given|told)`,
    String.raw`\b(ignoriere|vergiss|missachte) (alle |samtliche )?(vorherigen|bisherigen|obigen|fruheren) (anweisungen|regeln|vorgaben)`,
    String.raw`\b(ignora|olvida|omite) (todas )?(las )?(instrucciones|reglas|indicaciones) (anteriores|previas)`,
    String.raw`\b(ignore|oublie|ignorez|oubliez) (toutes )?(les )?(instructions|regles|consignes) (precedentes|anterieures)`,
    String.raw`\b(ignore|esqueca|ignora) (todas )?(as )?(instrucoes|regras) (anteriores|previas)`,
    String.raw`\b(ignora|dimentica) (tutte )?(le )?(istruzioni|regole) (precedenti|ricevute)`,
    String.raw`\b(negeer|vergeet) (alle )?(de )?(vorige|eerdere|voorgaande) (instructies|regels)`,
    String.raw`\b(zignoruj|zapomnij) (wszystkie )?(poprzednie|wczesniejsze) (instrukcje|polecenia|zasady)`,
];

/** A passage that turns to the bot, in the eight languages, besides a sentence-start order. */
const TO_THE_BOT_PHRASES = [
    ...CLASSIC_ORDERS,
    String.raw`\b(override|bypass) ${EARLIER_INSTRUCTIONS}`,
    // English: "your system prompt", vocatives, notes to the AI, the classic orders
    String.raw`\b(your|ur) (own |exact |full |hidden |original |initial |current |internal |secret )*${OWN}\b`,
    String.raw`\b(ai|assistant|bot|chatbot|llm|gpt|language model|model|agent|screener)s? (reading|processing|parsing|screening|reviewing|summari[sz]ing) (this|these|the (message|text|profile))`,
    String.raw`\b(note|message|instructions?|reminder) (to|for) (the |any |an |all )?(\w+ )?(ai|assistant|bot|chatbot|llm|gpt|language model|screening (tool|bot))s?\b`,
    String.raw`\byou \((the |an? )?(ai|assistant|bot|chatbot|model)\)`,
    String.raw`(^|[\n.!?] *)(dear |hey |hi |hello )?(ai|assistant|bot|chatbot|gpt)\s*[:,]`,
    String.raw`\bif you are an? (ai|assistant|bot|chatbot|llm|language model|automated)`,
    String.raw`\b(before|instead of) (answering|replying|responding|you (answer|reply|respond))`,
    String.raw`\b(in|at the (start|end|beginning) of) your (reply|answer|response|next message)`,
    String.raw`\bfrom now on,? (you|reply|answer|respond|act)`,
    String.raw`\byou are (now )?(no longer|dan\b|an unrestricted|free from|in developer mode)`,
    String.raw`\b(this|the) (bot|chatbot|chat|assistant)'s (system prompt|instructions|rules|configuration|keys?)`,
    String.raw`\bthis (bot|chatbot|assistant|chat|site|app|service|server|conversation|session)\b`,
    String.raw`\b(your|ur) (new |real |true |only )?(identity|persona|role|task|purpose|job now|policies|content polic(y|ies)|memory|context|environment|env|authori[sz]ation|owner|developers?|creators?|operators?|guidance|settings)\b`,
    String.raw`\b(could|can|would|will|won't) you (please |kindly |just |also |now )?(tell|share|give|send|show|print|paste|reveal|repeat|output|list|copy|dump|act|be|pretend|switch|become|answer|reply|respond|ignore|forget|stop|drop|disable|turn|run|execute|display|write out|spell)\b`,
    String.raw`\byou('re| are| were) (now|no longer|not (the|her|his|their) (assistant|bot))\b|\byou (must|should|shall|will) now\b|\bfrom now\b|\bfor the (rest of this|next few|next) (chat|conversation|messages?|hour)`,
    String.raw`(?<!(will|'ll|would|to|shall|can|could|should|must|may|might|also|and|or) )\b(act|pretend|behave|roleplay|role-play|respond|answer|reply) (as|like) (if |though )?(a|an|my|our|you)\b`,
    String.raw`(?<!(will|'ll|would|to|shall|can|could|should|must|may|might|also|and|or) )\bpretend (to be|you|that)|\bimagine (that )?you('re| are)|\bplay the role of (a|an|my)\b|\bswitch (roles|sides|to)\b|\bturn into\b`,
    String.raw`\b(you|u) (were|have been|got) (told|given|instructed|programmed|configured|set up|trained)|\beverything (you were told|above|before)|\bignore everything|\b(the )?guidance you|\bupdated instructions|\bnew instructions? (for you|is|are)\b`,
    String.raw`\bwithout (any )?(filters?|restrictions|censorship|limits|safety)|\bno (filters?|restrictions|censorship)\b`,
    String.raw`[\[<{] *\/?(system|admin|instruction|ai|assistant|sys|inst)\b|(?<![a-z] )\bsystem *:|\baiinstruction|\b(dear|hey|hello|hi) (ai|assistant|bot|chatbot)\b`,
    String.raw`\b(candidate'?s?|her|his) (bot|assistant|ai)\b.{0,40}\b(should|must|will|needs? to)\b`,
    // German: du/dein, an die KI; "Sie" in a job description is the candidate
    String.raw`\b(dein|deine|deinen|deiner|deines) (eigenen? |genauen? |versteckten? )?(systemprompt|system-prompt|systemanweisungen|anweisungen|regeln|vorgaben|konfiguration|schlussel|api-schlussel|passwort|zugangsdaten)`,
    String.raw`\b(an die|liebe|hallo) (ki|assistent|bot)\b|\bwenn du eine ki bist`,
    String.raw`\b(du bist|bist du) (jetzt|nun|ab sofort|ab jetzt|nicht mehr)|\bab (jetzt|sofort)\b|\b(gib|zeig|nenne|sag|schick|kopiere|verrate) mir\b|\btu so,? als\b|\bdiese[nrs]? (bot|assistenten|chat)\b|\bihr(e|en)? (systemprompt|system-prompt|anweisungen|konfiguration|api-schlussel|passwort)|\bohne (filter|einschrankungen|regeln)\b`,
    // Spanish
    String.raw`\b(tus|tu) (propias? )?(instrucciones|prompt|reglas|normas|configuracion|claves?|credenciales|contrasenas?)`,
    String.raw`\b(nota|mensaje) para (la |el )?(ia|asistente|bot)\b|\bsi eres una? (ia|asistente|bot|modelo)`,
    String.raw`\ba partir de ahora|\bdesde ahora|\b(ahora|ya no) eres\b|\beres ahora\b|\bactua como (un|una|mi|si)\b|\bfinge\b|\b(dime|dame|muestrame|enviame|comparte|copia|pega|revelame)\b|\bsu (prompt|clave|contrasena)|\bsus instrucciones (actuales|originales|ocultas)|\b(este|esta) (bot|asistente|chat)\b|\bsin (filtros?|restricciones)\b`,
    // French
    String.raw`\b(tes|ton|ta) (propres? )?(instructions|prompt|regles|consignes|configuration|cles?|identifiants|mots de passe)`,
    String.raw`\b(note|message) (pour|a) (l'|la |le )?(ia|assistant|bot)\b|\bsi tu es une? (ia|assistant|bot)`,
    String.raw`\ba partir de maintenant|\bdesormais\b|\btu es (maintenant|desormais)|\bfais comme si|\bfaites comme si|\b(donne|montre|dis|envoie|donnez|montrez|dites|envoyez)-moi\b|\b(copiez|collez|revelez)\b|\b(votre|vos) (prompt|instructions|consignes|configuration|cles?|regles)\b|\bce (bot|chatbot|assistant)\b|\bsans (filtres?|restrictions)\b`,
    // Portuguese ("suas" is also "his/her/their": only "tuas" and "você" forms count)
    String.raw`\b(tuas|teu|tua) (proprias? )?(instrucoes|prompt|regras|configuracao|chaves?|credenciais|senhas?)`,
    String.raw`\b(nota|mensagem) para (a |o )?(ia|assistente|bot)\b|\bse voce (e|for) uma? (ia|assistente|bot)`,
    String.raw`\ba partir de agora|\bagora (voce|vc) e\b|\bvoce (e|agora e) (agora|meu|minha)\b|\bfinja\b|\bme (diga|mostre|passe|envie|cole|copie|revele)\b|\b(seu|sua|suas) (prompt|configuracao|chave|senha|instrucoes atuais|instrucoes originais)|\bpara de seguir\b|\b(este|esse) (bot|assistente|chat)\b|\bsem (filtros?|restricoes)\b`,
    // Italian
    String.raw`\b(le tue|tue|il tuo|tuo|la tua) (istruzioni|prompt|regole|configurazione|chiavi?|credenziali|password)`,
    String.raw`\b(nota|messaggio) per (l'|il )?(ia|assistente|bot)\b|\bse sei un'? ?(ia|assistente|bot)`,
    String.raw`\bda (ora|adesso|questo momento)( in poi)?\b|\b(ora|adesso) sei\b|\bfai finta\b|\bfingi\b|\b(dimmi|dammi|mostrami|incolla|copia|rivela|scrivimi)\b|\b(la sua|le sue|il suo) (configurazione|istruzioni|prompt|chiave|password)|\b(questo) (bot|assistente|chat)\b|\bsenza (filtri|restrizioni)\b`,
    // Dutch
    String.raw`\b(je|jouw) (eigen )?(instructies|systeemprompt|prompt|regels|configuratie|sleutels?|wachtwoorden?)`,
    String.raw`\b(notitie|bericht) voor (de )?(ai|assistent|bot)\b|\bals je een (ai|assistent|bot) bent`,
    String.raw`\bvanaf nu\b|\bje bent (nu|niet langer)\b|\bdoe alsof\b|\b(geef|stuur|toon|vertel|laat) (me|mij)\b|\b(deze|die) (bot|assistent|chat)\b|\buw (instructies|systeemprompt|configuratie)|\bzonder (filters?|beperkingen)\b`,
    // Polish
    String.raw`\b(twoje|twoj|twoich|twoja) (instrukcje|instrukcji|prompt|zasady|reguly|konfiguracje|klucze?|hasla?)`,
    String.raw`\b(notatka|wiadomosc) dla (ai|si|asystenta|bota)\b|\bjesli jestes (ai|si|asystentem|botem)`,
    String.raw`\bod (teraz|tej chwili)\b|\bjestes teraz\b|\budawaj\b|\b(podaj|pokaz|wklej|powiedz mi|wyslij|ujawnij|zdradz)\b|\b(swoj|swoje|swojego|swoja|twoj\w*) (ukryty |pelny )?(prompt|instrukcj\w*|konfiguracj\w*|klucz\w*|hasl\w*)|\b(tego|ten) (bota|bot|asystenta|czatu)\b|\bbez (filtrow|ograniczen)\b`,
    // Swedish, Turkish (as plain() leaves them: "ı" stays)
    String.raw`\b(din|ditt|dina) (egna |dolda |ursprungliga )?(instruktioner|systemprompt|prompt|regler|konfiguration|nycklar|nyckel|api-nyckel|losenord)|\b(ignorera|glom|strunta i) (alla )?(tidigare|foregaende|dina) (instruktioner|regler)|\bfran och med nu\b|\bdu ar (nu|inte langre)\b|\blatsas\b|\b(ge|visa|skicka|beratta for) mig\b|\butan (filter|begransningar|regler)\b`,
    String.raw`\b(talimatların|kuralların|sistem istemin|yapılandırman|anahtarın|api anahtarın|sifren)\w*|\b(onceki|tum) (tum )?(talimatları|kuralları) (unut|yok say|gormezden gel)|\bbundan (boyle|sonra)\b|\bartık (sen|bir)\b|\bgibi davran|\b(bana) (ver|goster|gonder|soyle|yaz)\b|\b(kısıtlamasız|filtresiz|kuralsız)\b`,
    // Japanese, Korean, Chinese: the second person
    String.raw`あなた|君の|お前|당신|너의|네가|你的|你是|您的`,
];

/** The same tests, tried only where one of their phrases may start: every passage a rule matched takes one. */
const TO_THE_BOT_SEARCH = new PrefixFilteredPattern(new RegExp([SENTENCE_START_ORDER, ...TO_THE_BOT_PHRASES].join('|')));
const TO_THE_BOT_IN_GLOSS_SEARCH = new PrefixFilteredPattern(new RegExp(TO_THE_BOT_PHRASES.join('|')));
const turnsToTheBot = (text: string) => TO_THE_BOT_SEARCH.exec(text) !== null;

/**
 * In a gloss, what turns to the bot counts only outside quotations: a job description quotes the
 * attacks it is about (「以前の指示を無視して」), and the gloss keeps the quotation marks but not the
 * words that frame them ("such as", "users type"), while it writes every clause verb first, like an
 * order. A note to the bot with a colon ("AIへ:", "AI에게:") counts even inside a quotation: that is
 * how an order rides in a pasted e-mail.
 */
const QUOTATION = /"[^"]*"/g;
const NOTE_TO_THE_BOT_IN_GLOSS = /\b(ai|assistant|bot|chatbot|gpt)( assistant)? :/;

const CLASSIC_ORDER = new RegExp(CLASSIC_ORDERS.join('|'));
/** What double quotation marks or guillemets hold, on one line: an attack a message quotes, not one it gives. */
const QUOTED_WORDS = /["“«„][^"“”«»„\n]{0,300}["”»“]/g;

/**
 * Whether a passage gives one of the classic orders to drop the bot's instructions outside quotation
 * marks. A rule's match on such a passage stands whatever the scorer makes of the words around it:
 * glued into the prose of an interview plan, the order dilutes the scorer's window, never its intent.
 */
export function givesClassicOrder(passage: string): boolean {
  const unquoted = plain(passage).replace(QUOTED_WORDS, ' ');
  if (CLASSIC_ORDER.test(unquoted)) return true;
  // In leetspeak ("F0rget the ru1es"), with "1" read once as "i" and once as "l", as the rules read it.
  LEET_IN_A_WORD.lastIndex = 0;
  return LEET_IN_A_WORD.test(unquoted) && ['i', 'l'].some((one) => CLASSIC_ORDER.test(unquoted.replace(LEET_IN_A_WORD, (c) => (c === '1' ? one : String.fromCharCode(leetLetterCode(c.charCodeAt(0)))))));
}

/** A leetspeak digit or symbol next to a letter. */
const LEET_IN_A_WORD = /(?<=[a-z])[0-9@$!|]|[0-9@$!|](?=[a-z])/g;

/** A gloss with what it quotes blanked out, character for character, so that its offsets still hold. */
export function withoutQuotations(gloss: string): string {
  return gloss.replace(QUOTATION, (quotation) => ' '.repeat(quotation.length));
}

/** A recruiter taking back what they sent before ("ignore the salary range I sent earlier"). */
const SELF_CORRECTION = /\b(ignore|disregard|forget|scratch) (the|my|that|what) [^.\n]{0,60}\b(i|we) (sent|put|wrote|shared|gave|mentioned|said)( (to )?you)?\b/g;

/**
 * Whether a message is a document about a job: long enough, with several words of a posting's
 * structure. `folded` is the text's plain form, when the caller has it already.
 */
export function isJobDocument(text: string, folded = plain(text)): boolean {
  if (text.length < MIN_JOB_CHARS) return false;
  const seen = new Set<string>();
  // Each search starts where the last match ended, as matchAll's would.
  let match = JOB_MARKER_SEARCH.exec(folded);
  while (match !== null) {
    seen.add(match[0]);
    if (seen.size >= MIN_JOB_MARKERS) return true;
    match = JOB_MARKER_SEARCH.exec(folded, match.index + Math.max(1, match[0].length));
  }
  return false;
}

/**
 * Whether a passage of the message's own words, with the quotations it cites blanked out
 * (withoutCitedQuotations in rules/mentions.ts, taken over the whole message), turns to the bot. A
 * "you" alone counts for nothing: in a job document it is the candidate's ("if you find a password
 * file on a share, you document it").
 */
export function speaksToTheBot(passage: string): boolean {
  return turnsToTheBot(plain(passage).replace(SELF_CORRECTION, ' '));
}

/**
 * Whether a passage of the English gloss of another script turns to the bot, given the same passage
 * of the gloss without its quotations (withoutQuotations, taken over the whole gloss so that no
 * quotation is cut in half). A "you" left over counts for nothing: the gloss keeps no grammar to
 * tell the candidate's "you" (вы, आप, あなた) from the bot's.
 */
export function glossSpeaksToTheBot(passage: string, unquoted: string): boolean {
  return TO_THE_BOT_IN_GLOSS_SEARCH.exec(plain(unquoted)) !== null || NOTE_TO_THE_BOT_IN_GLOSS.test(plain(passage));
}
