import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';

export const memberRoutes = (_ctx: AppContext): FastifyPluginAsyncTypebox => async () => {};
