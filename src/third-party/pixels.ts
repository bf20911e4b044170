import { FACEBOOK_PIXEL, LINKEDIN_INSIGHT } from '../survey/config/third-parties.ts';
import { loadScript } from './load-script.ts';

type Fbq = ((...args: unknown[]) => void) & { queue: unknown[]; loaded: boolean; version: string; push: Fbq; callMethod?: (...args: unknown[]) => void };

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
    _linkedin_partner_id?: string;
    _linkedin_data_partner_ids?: string[];
  }
}

/** Starts the Facebook (Meta) pixel with a page view: Meta's snippet, without its inline script. */
export function startFacebookPixel(id: string): void {
  if (!window.fbq) {
    // biome-ignore lint/complexity/useArrowFunction: kept in the shape of Meta's snippet, which fbevents.js takes over.
    const fbq = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue.push(args);
    } as Fbq;
    fbq.push = fbq;
    fbq.loaded = true;
    fbq.version = '2.0';
    fbq.queue = [];
    window.fbq = window._fbq = fbq;
    loadScript(FACEBOOK_PIXEL.script);
  }
  window.fbq('init', id);
  window.fbq('track', 'PageView');
}

/** Starts LinkedIn's Insight Tag for a partner id: LinkedIn's snippet, without its inline script. */
export function startLinkedInInsight(partnerId: string): void {
  window._linkedin_partner_id = partnerId;
  window._linkedin_data_partner_ids = [...(window._linkedin_data_partner_ids ?? []), partnerId];
  loadScript(LINKEDIN_INSIGHT.script);
}
