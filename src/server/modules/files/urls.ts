/** Where stored files are served (routes.ts); the URLs the API hands out point here. */
export const FILES_PATH = '/v0/files/';

/** The public URL of a stored file. */
export const fileUrl = (publicUrl: string, key: string) => `${publicUrl}${FILES_PATH}${key}`;

/** The storage key of a URL `fileUrl` made, or undefined for any other URL. */
export const fileKeyOf = (url: string | null | undefined) => url?.split(FILES_PATH)[1];
