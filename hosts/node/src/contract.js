/** The WIT package version this host was written for (`wit/recommender.wit`). */
export const CONTRACT_VERSION = '0.1.0';
