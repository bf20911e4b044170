/** Build-time settings the browser code reads (docs/deploying.md, "Error reporting, analytics and security headers"). */
interface ImportMetaEnv {
  /** The survey API's base URL when it runs on another origin. */
  readonly PUBLIC_SURVEY_API_URL?: string;
  /** Sentry's DSN for the browser: without it no Sentry code is built into the pages. */
  readonly PUBLIC_SENTRY_DSN?: string;
  readonly PUBLIC_SENTRY_ENVIRONMENT?: string;
  readonly PUBLIC_SENTRY_RELEASE?: string;
  /** A same-site URL that forwards Sentry envelopes (Sentry's `tunnel` option), for ad blockers. */
  readonly PUBLIC_SENTRY_TUNNEL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

declare namespace App {
  interface Locals {
    /** Set by the middleware on a console page or endpoint (src/server/console/console-guard.ts): open or shut, and the signed-in operator. */
    console?: import('./survey/operators/console-views.ts').ConsoleLocals;
  }
}

/** The inlang message-format plugin ships no types; src/i18n/catalogue.ts hands it to the inlang SDK as a plugin. */
declare module '@inlang/plugin-message-format' {
  const plugin: import('@inlang/sdk').InlangPlugin;
  export default plugin;
}
