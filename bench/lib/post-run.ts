/** Posts one run (`POST /v0/run`, the body as JSON); throws with the API's answer when it is not 201. */
export async function postRun(url: string, run: object): Promise<void> {
  const response = await fetch(`${url}/v0/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(run),
  });
  if (response.status !== 201)
    throw new Error(`POST /v0/run answered ${response.status}: ${await response.text()}`);
}
