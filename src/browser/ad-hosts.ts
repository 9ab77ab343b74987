/**
 * Ad and tracker hosts refused when `blockAds` is on: the networks that dominate third-party
 * requests on ordinary pages. A host matches itself and its subdomains. Filter lists such as
 * EasyList need a download this deployment may not be able to make, so the list is built in.
 */
const AD_HOSTS = [
  'doubleclick.net', 'googlesyndication.com', 'googleadservices.com', 'google-analytics.com', 'googletagmanager.com',
  'googletagservices.com', 'adservice.google.com', 'amazon-adsystem.com', 'adnxs.com', 'adsrvr.org', 'advertising.com',
  'criteo.com', 'criteo.net', 'taboola.com', 'outbrain.com', 'pubmatic.com', 'rubiconproject.com', 'openx.net',
  'casalemedia.com', 'moatads.com', 'scorecardresearch.com', 'quantserve.com', 'hotjar.com', 'mixpanel.com',
  'segment.io', 'segment.com', 'facebook.net', 'connect.facebook.net', 'ads-twitter.com', 'analytics.twitter.com',
  'bat.bing.com', 'clarity.ms', 'mc.yandex.ru', 'adform.net', 'smartadserver.com', 'media.net',
  'zedo.com', 'serving-sys.com', 'sharethrough.com', 'teads.tv', 'yieldmo.com', '3lift.com', 'bidswitch.net',
  'chartbeat.com', 'js-agent.newrelic.com', 'nr-data.net', 'optimizely.com', 'fullstory.com', 'widget.intercom.io', 'crazyegg.com',
];

export function isAdHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return AD_HOSTS.some((ad) => host === ad || host.endsWith(`.${ad}`));
}
