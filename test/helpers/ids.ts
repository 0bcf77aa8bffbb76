/** A well-formed id that names nothing: for the 404 of an unknown resource. */
export const UNKNOWN_ID = '0190d6e2-3c4b-7def-8123-456789abcdef';
