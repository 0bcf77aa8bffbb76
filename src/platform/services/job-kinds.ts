/** The job kinds of services' moves; each is queued with the state change it carries out. */
export const ServiceJobs = {
  deploy: 'service.deploy',
  stop: 'service.stop',
  /** Removes the containers of a deleted service (its rows are gone). */
  cleanup: 'service.cleanup',
  cron: 'service.cron',
} as const;
