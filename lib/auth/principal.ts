/** The workbench serves one owner; revisions saved through the API are attributed to them. */
export const OWNER_AUTHOR = "owner";
