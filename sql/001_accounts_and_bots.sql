-- Accounts, sessions (the table connect-pg-simple expects) and the one bot per user.

CREATE TABLE users (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username           text NOT NULL,
  email              text NOT NULL,
  password_hash      text NOT NULL,
  llm_provider       text CHECK (llm_provider IN ('anthropic', 'openai', 'google', 'azure')),
  llm_model          text,
  notify_leads_email boolean NOT NULL DEFAULT false,
  created_at         timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_username_key UNIQUE (username),
  CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE session (
  sid    varchar NOT NULL PRIMARY KEY,
  sess   json NOT NULL,
  expire timestamp(6) NOT NULL
);
CREATE INDEX session_expire_idx ON session (expire);

CREATE TABLE bots (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id               uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name                  text NOT NULL,
  headline              text,
  personality           text NOT NULL CHECK (personality IN ('professional', 'creative', 'enthusiastic')),
  context_text          text NOT NULL,
  suggested_questions   jsonb NOT NULL DEFAULT '[]',
  loading_messages      jsonb NOT NULL DEFAULT '[]',
  is_active             boolean NOT NULL DEFAULT true,
  theme_color           text NOT NULL DEFAULT '#4f46e5',
  deployment_mode       text NOT NULL DEFAULT 'managed' CHECK (deployment_mode IN ('managed', 'self_hosted')),
  rate_limit_per_minute integer CHECK (rate_limit_per_minute BETWEEN 1 AND 1000),
  rate_limit_per_day    integer CHECK (rate_limit_per_day BETWEEN 1 AND 100000),
  total_conversations   integer NOT NULL DEFAULT 0,
  total_messages        integer NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  -- One bot per user, enforced here rather than by a look-up that can race.
  CONSTRAINT bots_user_id_key UNIQUE (user_id)
);

-- Failed sign-ins per throttle key, in fixed 15-minute windows.
CREATE TABLE sign_in_failures (
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  count        integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
