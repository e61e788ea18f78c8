export { formatEnd, formatEvent, type Rendered } from './formatEvent.js';
export { type RenderOptions, renderEvents } from './renderEvents.js';
export { isErrorRendered } from './renderedErrors.js';
export { type RenderedAgents, type RenderHubOptions, renderHub } from './renderHub.js';
export { initialRenderState, type RenderState, type RenderStateOptions } from './renderState.js';
export { type Style, shouldColor, styleFor } from './style.js';
export { compactJson, firstLine, formatElapsed, formatUsage, oneLine, truncate } from './text.js';
