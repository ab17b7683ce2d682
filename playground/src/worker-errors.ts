/**
 * Workers that failed to start (Monaco's and the analysis worker); the test API reports them so a
 * broken bundle fails the e2e tests. A module of its own so the page shell need not load Monaco.
 */
export const workerErrors: string[] = [];
