import { evaluate, parse } from 'jse-eval';
import type { Expression } from 'jsep';
import { Lru } from '../store/lru';

/**
 * Adaptive-content conditions: expressions such as
 * `visitor.claims.isBeta == true && visitor.claims.unsigned.plan == "pro"`
 * that decide whether a section or site space is shown to a visitor.
 *
 * They are parsed with jsep and evaluated by jse-eval's tree walker against
 * `{ visitor: { claims } }` only: never `eval` or `Function`. On top of the
 * library's own guard (it refuses `__proto__`, `prototype`, `constructor`),
 * the accepted grammar is narrowed at write time to data access and
 * operators: the only root name is `visitor`, and the only call is
 * `<array>.includes(<literal>)`, so a condition can neither reach Node
 * globals nor run code.
 */

/** A condition outside the accepted grammar; its message says why. */
export class ConditionError extends Error {}

const ALLOWED = new Set([
  'Literal',
  'Identifier',
  'MemberExpression',
  'UnaryExpression',
  'BinaryExpression',
  'LogicalExpression',
  'ConditionalExpression',
  'ArrayExpression',
  'CallExpression',
]);
const UNARY = new Set(['!', '-', '+']);
const BINARY = new Set(['==', '!=', '===', '!==', '<', '>', '<=', '>=', '&&', '||', '??', '+', '-', '*', '/', '%']);
const FORBIDDEN_MEMBERS =
  /^(__proto__|prototype|constructor|__defineGetter__|__defineSetter__|__lookupGetter__|__lookupSetter__)$/;

type Node = Expression & Record<string, unknown>;

/** Checks one node and its children against the narrowed grammar. */
function check(node: Node, rootPosition: boolean): void {
  if (!ALLOWED.has(node.type)) throw new ConditionError(`${node.type} is not allowed in a condition`);
  switch (node.type) {
    case 'Identifier':
      if (rootPosition && node.name !== 'visitor')
        throw new ConditionError(`Unknown name "${String(node.name)}": conditions read "visitor.claims…"`);
      return;
    case 'MemberExpression': {
      const property = node.property as Node;
      const name = node.computed
        ? property.type === 'Literal'
          ? String(property.value)
          : undefined
        : String(property.name);
      if (node.computed && property.type !== 'Literal')
        throw new ConditionError('Computed member access needs a literal key');
      if (name === undefined || FORBIDDEN_MEMBERS.test(name))
        throw new ConditionError(`Access to "${String(name)}" is not allowed`);
      check(node.object as Node, true);
      return;
    }
    case 'CallExpression': {
      const callee = node.callee as Node;
      const args = node.arguments as Node[];
      if (
        callee.type !== 'MemberExpression' ||
        callee.computed ||
        (callee.property as Node).name !== 'includes' ||
        args.length !== 1 ||
        args[0]!.type !== 'Literal'
      ) {
        throw new ConditionError('The only call allowed in a condition is <list>.includes(<value>)');
      }
      check(callee.object as Node, true);
      return;
    }
    case 'UnaryExpression':
      if (!UNARY.has(String(node.operator)))
        throw new ConditionError(`Operator "${String(node.operator)}" is not allowed`);
      check(node.argument as Node, true);
      return;
    case 'BinaryExpression':
    case 'LogicalExpression':
      if (!BINARY.has(String(node.operator)))
        throw new ConditionError(`Operator "${String(node.operator)}" is not allowed`);
      check(node.left as Node, true);
      check(node.right as Node, true);
      return;
    case 'ConditionalExpression':
      for (const k of ['test', 'consequent', 'alternate']) check(node[k] as Node, true);
      return;
    case 'ArrayExpression':
      for (const e of node.elements as Node[]) check(e, true);
      return;
    default:
      return;
  }
}

/**
 * Parses and checks a condition; throws ConditionError with a readable
 * message (the API answers 400 with it).
 */
export function parseCondition(source: string): Expression {
  let ast: Expression;
  try {
    ast = parse(source);
  } catch (err) {
    throw new ConditionError(`Invalid condition: ${(err as Error).message}`);
  }
  if (!ast || ast.type === 'Compound') throw new ConditionError('Invalid condition: expected one expression');
  check(ast as Node, true);
  return ast;
}

/** Parsed conditions, by source: a published page evaluates the same few conditions on every request. */
const parsed = new Lru<string, Expression | null>(1000);

/**
 * Whether a visitor with `claims` passes `condition` (null/empty = always).
 * A condition that fails to parse or to evaluate (a missing claim deep in a
 * path) hides the item: adaptive content fails closed.
 */
export function visitorPasses(condition: string | null, claims: Record<string, unknown>): boolean {
  if (condition === null || condition.trim() === '') return true;
  let ast = parsed.get(condition);
  if (ast === undefined) {
    try {
      ast = parseCondition(condition);
    } catch {
      ast = null;
    }
    parsed.set(condition, ast);
  }
  if (ast === null) return false;
  try {
    return Boolean(evaluate(ast, { visitor: { claims } }));
  } catch {
    return false;
  }
}
