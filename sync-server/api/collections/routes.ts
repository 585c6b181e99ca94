import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';

export const collectionRoutes = (_ctx: AppContext): FastifyPluginAsyncTypebox => async () => {};
