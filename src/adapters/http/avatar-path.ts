/** Where a bot's avatar is served: the owner's photo under a content-addressed URL (photo-routes.ts), or its initials (runtime-routes.ts). */
export const avatarPath = (botId: string, photoHash: string | null) => (photoHash ? `/api/avatars/${botId}/${photoHash}.webp` : `/api/avatars/${botId}.svg`);
