/**
 * Every error code the API answers, with its HTTP status and what it means.
 * Throw sites name a code from here (`new AppError('slug_taken', ...)`); the
 * status comes with it, and the Error schema of the API description lists
 * them all. A code keeps its meaning for ever; add codes, do not reuse them.
 */
export const ERROR_CODES = {
  // Requests the framework or the schemas refuse.
  validation_failed: { status: 400, meaning: 'The request does not match its schema' },
  invalid_json: { status: 400, meaning: 'The body is not valid JSON' },
  invalid_content_length: { status: 400, meaning: 'Content-Length does not match the body' },
  invalid_url: { status: 400, meaning: 'The URL or a URL value is malformed' },
  invalid_request: { status: 400, meaning: 'The request could not be processed as sent' },
  invalid_value: { status: 400, meaning: 'A value is out of range or cannot be stored' },
  nul_character: {
    status: 400,
    meaning: 'A text value, key, query or path parameter contains the NUL character (U+0000)',
  },
  json_too_deep: { status: 400, meaning: 'The JSON body nests arrays and objects too deep' },
  invalid_multipart: {
    status: 400,
    meaning: 'The multipart body is malformed: no boundary, extra parts, or cut short',
  },
  bad_request: { status: 400, meaning: 'The HTTP request is malformed (request line, headers)' },
  host_required: { status: 400, meaning: 'An HTTP/1.1 request came without the Host header' },
  request_timeout: { status: 408, meaning: 'The request was not received in time' },
  headers_too_large: { status: 431, meaning: 'The request headers are larger than allowed' },
  payload_too_large: { status: 413, meaning: 'The body or file is larger than allowed' },
  unsupported_media_type: { status: 415, meaning: 'The body has a Content-Type not served here' },
  too_many_followers: {
    status: 429,
    meaning: 'The caller already holds as many log sockets open as allowed; close one first',
  },
  upgrade_required: { status: 426, meaning: 'The route is a WebSocket: connect with an upgrade' },
  route_not_found: { status: 404, meaning: 'No route has this method and path' },
  not_found: { status: 404, meaning: 'The resource does not exist or is not visible to you' },
  internal_error: { status: 500, meaning: 'An unexpected failure; it has been logged' },

  // Credentials and access.
  unauthenticated: { status: 401, meaning: 'No credential was sent' },
  malformed_authorization: {
    status: 401,
    meaning: 'The Authorization header is not "Bearer <token>"',
  },
  invalid_token: { status: 401, meaning: 'The token is malformed, unknown, expired or revoked' },
  invalid_credentials: { status: 401, meaning: 'The e-mail address or the password is wrong' },
  invalid_node_token: { status: 401, meaning: 'The agent token is unknown or was rotated' },
  route_not_accessible: { status: 403, meaning: 'The route accepts no credential' },
  origin_not_allowed: {
    status: 403,
    meaning:
      "A request authenticated by the session cookie that changes state (or opens a WebSocket) came from an origin other than the service's own (PUBLIC_URL)",
  },
  session_required: { status: 403, meaning: 'The route is for signed-in people, not keys or apps' },
  person_required: { status: 403, meaning: 'Only a person (not a key or app) may do this' },
  credential_not_accepted: { status: 403, meaning: 'This kind of credential is not accepted here' },
  key_not_allowed: { status: 403, meaning: 'The API key may not call this route' },
  missing_scope: { status: 403, meaning: 'The key or app lacks a scope the route needs' },
  app_not_allowed: { status: 403, meaning: 'Apps may not call this route' },
  insufficient_role: { status: 403, meaning: 'Your role is below the one this needs' },
  role_above_inviter: { status: 403, meaning: 'An invitation cannot grant a role above yours' },
  role_above_granter: { status: 403, meaning: 'You cannot grant a role above yours' },
  role_above_creator: { status: 403, meaning: "A key's role cannot exceed its creator's" },
  registration_closed: { status: 403, meaning: 'Registration is closed on this server' },
  invitation_invalid: { status: 403, meaning: 'The invitation is unknown, expired or used' },
  node_shared: { status: 403, meaning: 'A shared node cannot be changed from an organization' },

  // Accounts and identity providers.
  account_not_found: { status: 404, meaning: 'No account has this e-mail address' },
  email_taken: { status: 409, meaning: 'An account already has this e-mail address' },
  identity_taken: { status: 409, meaning: 'This identity is linked to another account' },
  identity_exists: { status: 409, meaning: 'An identity of this provider is already linked' },
  identity_clash: { status: 409, meaning: 'The identity and the account disagree on the e-mail' },
  idp_disabled: { status: 403, meaning: 'Sign-in with an identity provider is not configured' },
  idp_code_refused: { status: 401, meaning: 'The identity provider refused the code' },
  idp_refused: { status: 401, meaning: 'The identity provider did not sign you in' },
  idp_unavailable: { status: 502, meaning: 'The identity provider could not be reached' },
  invalid_id_token: { status: 401, meaning: 'The id_token failed verification' },
  invalid_state: { status: 400, meaning: 'The sign-in did not start in this browser' },

  // OAuth apps.
  unknown_client: { status: 400, meaning: 'No app has this client_id' },
  invalid_client: { status: 403, meaning: 'The token request names a wrong client or secret' },
  invalid_grant: { status: 403, meaning: 'The code, its PKCE verifier or redirect URI is refused' },
  invalid_redirect_uri: { status: 400, meaning: 'The redirect URI is not registered for the app' },
  invalid_scope: { status: 400, meaning: 'A scope is unknown or not allowed here' },

  // Workspaces, members, invitations, keys.
  slug_taken: { status: 409, meaning: 'Another workspace has this slug' },
  slug_reserved: { status: 400, meaning: 'The slug is a path of the web app' },
  slug_mismatch: { status: 400, meaning: 'The confirmation slug is not the workspace slug' },
  already_member: { status: 409, meaning: 'The person is already a member' },
  not_a_member: { status: 400, meaning: 'The person is not a member of the workspace' },
  last_owner: { status: 409, meaning: 'The last owner cannot leave or be demoted' },
  invitation_accepted: { status: 409, meaning: 'The invitation has been accepted already' },
  invalid_email: { status: 400, meaning: 'The value is not an e-mail address' },
  invalid_time_zone: { status: 400, meaning: 'The time zone is not an IANA zone name' },

  // Fields, statuses, lists and views.
  key_taken: { status: 400, meaning: 'A field of the workspace already has this key' },
  key_prefix_taken: { status: 409, meaning: 'Another list has this card-key prefix' },
  field_in_use: { status: 409, meaning: 'The field is still used by a list or view' },
  field_has_no_options: { status: 400, meaning: 'The field type has no options' },
  field_not_sortable: { status: 400, meaning: 'Views cannot sort by this field' },
  field_not_groupable: { status: 400, meaning: 'Views cannot group by this field' },
  duplicate_option: { status: 400, meaning: 'Two options have the same label or id' },
  too_many_options: { status: 400, meaning: 'The field has more options than allowed' },
  unknown_option: { status: 400, meaning: 'The option is not declared on the field' },
  option_not_declared: { status: 400, meaning: 'A value names an option the field lacks' },
  invalid_config: { status: 400, meaning: 'The field or project configuration is invalid' },
  status_name_taken: { status: 409, meaning: 'Another status has this name' },
  status_in_use: { status: 409, meaning: 'Cards still have this status' },
  last_status: { status: 409, meaning: 'A workspace keeps at least one status' },
  invalid_status: { status: 400, meaning: 'The status does not exist in the workspace' },
  unknown_status: { status: 400, meaning: 'A cited status does not exist' },
  collection_not_found: { status: 409, meaning: 'A cited list does not exist in the workspace' },
  group_not_found: { status: 409, meaning: 'A cited sidebar group does not exist' },
  duplicate_collection: { status: 400, meaning: 'A list is cited twice' },
  unknown_collection: { status: 400, meaning: 'A cited list does not exist' },
  unknown_group: { status: 400, meaning: 'A cited group does not exist' },
  unknown_field: { status: 400, meaning: 'A cited field does not exist' },
  unknown_attribute: { status: 400, meaning: 'A built-in attribute name is unknown' },
  invalid_definition: { status: 400, meaning: 'The view definition is invalid' },
  definition_too_deep: { status: 400, meaning: 'The view filter nests too deep' },
  too_many_conditions: { status: 400, meaning: 'The view filter has too many conditions' },
  invalid_operator: { status: 400, meaning: 'The operator does not apply to this field' },
  invalid_display: { status: 400, meaning: 'The view display settings are invalid' },
  invalid_group: { status: 400, meaning: 'The group value does not fit the grouping field' },
  group_by_required: { status: 400, meaning: 'Grouped queries need a grouping field' },
  invalid_cursor: { status: 400, meaning: 'The cursor is malformed or from another query' },
  invalid_order: { status: 400, meaning: 'The order cannot be applied' },

  // Cards, bodies, files.
  invalid_parent: { status: 400, meaning: 'The parent card is unknown or would make a loop' },
  invalid_after_item: { status: 400, meaning: 'The card to place after is not a sibling' },
  already_home: { status: 400, meaning: 'The card already lives in this list' },
  cannot_detach_home: { status: 400, meaning: 'A card cannot be detached from its home list' },
  subtree_too_large: { status: 400, meaning: 'The card has more descendants than can be moved' },
  unknown_property: { status: 400, meaning: 'A property key names no field' },
  invalid_property_value: {
    status: 400,
    meaning: "A property value does not fit its field's type",
  },
  blocks_and_body: { status: 400, meaning: 'Send a block document or markdown, not both' },
  invalid_block: { status: 400, meaning: 'A block of the document is malformed' },
  unknown_block_type: { status: 400, meaning: 'A block has an unknown type' },
  unknown_mark: { status: 400, meaning: 'A text run has an unknown mark' },
  invalid_indent: { status: 400, meaning: 'A block indent is out of range' },
  invalid_link: { status: 400, meaning: 'A link is not an allowed URL' },
  unknown_file: { status: 400, meaning: 'A cited file does not exist in the workspace' },
  file_missing: { status: 400, meaning: 'The upload carries no file part' },
  multipart_required: { status: 400, meaning: 'The route takes a multipart/form-data upload' },
  not_an_image: { status: 400, meaning: 'The file is not an image of an accepted type' },
  empty_patch: { status: 400, meaning: 'The patch changes nothing' },
  bulk_too_large: { status: 400, meaning: 'The bulk edit matches more cards than allowed' },
  expected_count_required: {
    status: 400,
    meaning: 'Large bulk edits must state the expected count',
  },
  expected_count_mismatch: { status: 409, meaning: 'The view matches another number of cards now' },
  import_row_refused: {
    status: 400,
    meaning: 'A row of the import is refused; nothing was written',
  },
  duplicate_external_id: { status: 400, meaning: 'Two import rows have the same external id' },
  file_too_large: { status: 400, meaning: 'An imported file is larger than allowed' },

  // Events and webhooks.
  unknown_event_type: { status: 400, meaning: 'An event type is unknown' },
  invalid_webhook_url: { status: 400, meaning: 'The webhook URL is not an absolute http(s) URL' },
  webhook_url_not_allowed: { status: 400, meaning: 'The webhook URL points at a private address' },

  // Organizations, projects, secrets.
  project_name_taken: { status: 409, meaning: 'Another project of the organization has this name' },
  project_in_use: { status: 409, meaning: 'The project still has workers' },
  duplicate_repository: { status: 400, meaning: 'A repository is listed twice' },
  duplicate_secret_name: { status: 400, meaning: 'A secret name is given twice' },
  too_many_secrets: { status: 400, meaning: 'The owner has more secrets than allowed' },
  secret_undecryptable: { status: 500, meaning: 'A stored secret failed authentication' },
  secrets_key_mismatch: {
    status: 500,
    meaning: 'SECRETS_KEY is not the key secrets were sealed with',
  },

  // Deployments and services.
  deployment_name_taken: {
    status: 409,
    meaning: 'Another deployment of the organization has this name',
  },
  deployment_running: { status: 409, meaning: 'A service of the deployment still runs or moves' },
  service_name_taken: { status: 409, meaning: 'Another service of the deployment has this name' },
  service_running: { status: 409, meaning: 'The service still runs or moves' },
  service_not_running: { status: 409, meaning: 'The service has no running replica' },
  replica_not_found: { status: 404, meaning: 'The service has no live replica of this id' },
  domain_taken: { status: 409, meaning: 'Another service already has this custom domain' },
  invalid_source: {
    status: 400,
    meaning: "The service's source names no project of the organization",
  },
  duplicate_cron_job: { status: 400, meaning: 'A cron job name is listed twice' },
  invalid_schedule: { status: 400, meaning: 'A cron schedule cannot be parsed' },
  port_required: { status: 400, meaning: 'The setting needs the port the service answers on' },
  unknown_deploy: {
    status: 400,
    meaning: '`runId` or `image` names no earlier deploy of this service (with an image recorded)',
  },
  not_an_org_member: {
    status: 400,
    meaning: 'A user named is not a member of the organization',
  },

  // Service URLs (answers of the service proxy, not of API routes).
  service_not_found: {
    status: 404,
    meaning: 'No service has this URL (svc-{serviceId} host or verified custom domain)',
  },
  service_unavailable: {
    status: 503,
    meaning: 'The service has no running replica, or its node is offline; try again later',
  },
  service_unreachable: {
    status: 502,
    meaning: "The service's container did not accept the connection or broke it off",
  },
  service_access_denied: { status: 403, meaning: 'The service refused this caller' },

  // Nodes, workers, agents.
  node_name_taken: { status: 409, meaning: 'Another node has this name' },
  node_has_workers: { status: 409, meaning: 'The node still has workers' },
  node_unavailable: { status: 409, meaning: 'The node is draining or not usable' },
  no_node_available: { status: 409, meaning: 'No node can take a new worker' },
  node_offline: { status: 503, meaning: 'The node has no agent connected; try again later' },
  worker_state_conflict: { status: 409, meaning: 'The worker is not in a state that allows this' },
  worker_not_running: { status: 409, meaning: 'The worker is not running' },
  container_state_conflict: { status: 409, meaning: 'The container refused the change of state' },
  terminal_not_found: { status: 404, meaning: 'No terminal has this id in the worker' },
  terminal_exists: { status: 409, meaning: 'A terminal with this id already exists' },
  command_not_found: { status: 404, meaning: 'No command has this id' },
  agent_timeout: { status: 504, meaning: "The node's agent did not answer in time" },
  agent_error: { status: 502, meaning: "The node's agent failed the request" },

  // Private services and custom domains.
  no_custom_domain: { status: 409, meaning: 'The service has no custom domain' },
  domain_changed: { status: 409, meaning: 'The custom domain changed during its verification' },
  domain_challenge_missing: {
    status: 422,
    meaning: 'The TXT record of the domain challenge is not published',
  },
  domain_challenge_mismatch: {
    status: 422,
    meaning: 'The TXT record of the domain challenge does not hold the expected value',
  },
  dns_unavailable: { status: 502, meaning: 'The DNS servers did not answer the lookup' },
  domain_unknown: { status: 404, meaning: 'No service answers at this domain' },
  invalid_return_url: {
    status: 400,
    meaning: "The return URL is not on the service's own host",
  },
  sign_in_required: { status: 401, meaning: 'Sign in to the platform first' },
  service_login_required: {
    status: 401,
    meaning: 'A private service: send an API key in X-Service-Token, or sign in with a browser',
  },
  invalid_service_token: {
    status: 401,
    meaning: 'The key sent to a private service is malformed, unknown or revoked',
  },
  api_key_required: {
    status: 401,
    meaning: 'A private service takes an API key, not a session token, from scripts',
  },
  access_code_invalid: {
    status: 400,
    meaning: 'The sign-in code is unknown, used, expired or from another browser',
  },
  service_org_mismatch: {
    status: 403,
    meaning: "The key belongs to another organization than the service's",
  },
  not_on_allowlist: { status: 403, meaning: "The person is not on the service's allowlist" },
  not_in_organization: {
    status: 403,
    meaning: "The person is not a member of the service's organization",
  },

  // Operation.
  metrics_disabled: { status: 404, meaning: 'Metrics are off: the server has no METRICS_TOKEN' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes answered with one status: `CodeWithStatus<409>`. */
export type CodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

/** The codes as a Markdown list, for the API description. */
export function describeErrorCodes(): string {
  return Object.entries(ERROR_CODES)
    .map(([code, { status, meaning }]) => `- \`${code}\` (${status}): ${meaning}`)
    .join('\n');
}
