/** "2 approvals, 1 changes requested" — the review state in words (no verdicts: "No reviews yet"). */
export function reviewSummary(reviews: { status: 'approved' | 'changes-requested' }[]): string {
  const approvals = reviews.filter((r) => r.status === 'approved').length;
  const changes = reviews.filter((r) => r.status === 'changes-requested').length;
  if (approvals === 0 && changes === 0) return 'No reviews yet';
  const parts: string[] = [];
  if (approvals) parts.push(`${approvals} approval${approvals === 1 ? '' : 's'}`);
  if (changes) parts.push(`${changes} changes requested`);
  return parts.join(', ');
}
