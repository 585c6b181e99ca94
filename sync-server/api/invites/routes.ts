import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';

export const inviteRoutes = (_ctx: AppContext): FastifyPluginAsyncTypebox => async () => {};
