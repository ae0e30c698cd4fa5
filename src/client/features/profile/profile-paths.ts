export const PROFILE_PATH = '/profile';
/** The spec's path of the profile edit form. */
export const PROFILE_EDIT_PATH = '/updateUserProfile';
