/** A change the batch refused: HTTP status and a message naming the change and field. */
export class BatchError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'BatchError';
  }
}
