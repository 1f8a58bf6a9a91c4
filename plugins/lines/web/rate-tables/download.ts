import type { ApiClient } from '@atrium/sdk';

/**
 * Downloads a file from the API with the user's token (a plain link would carry none): the response
 * is cloned as a blob before the client reads it as text, so binary files (XLSX) arrive intact.
 */
export async function downloadFromApi(api: ApiClient, path: string, fallbackName: string): Promise<void> {
  let blob: Promise<Blob> | undefined;
  let fileName = fallbackName;
  await api.get(path, {
    headers: { Accept: '*/*' },
    onResponse: (response) => {
      if (!response.ok) return;
      blob = response.clone().blob();
      const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
      if (match) fileName = decodeURIComponent(match[1]!);
    },
  });
  if (!blob) return;
  const url = URL.createObjectURL(await blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
