// @parley/gateway: any MCP host in front of any MCP server, on both protocol eras, with every
// question still reaching its person.

export type { AuditSink, QuestionAudit } from './audit.js';
export { GatewayConfigError, loadGatewayConfig, readGatewayConfig } from './config/read-config.js';
export type {
  FleetConfig,
  GatewayConfig,
  HttpUpstreamConfig,
  StdioUpstreamConfig,
  UpstreamConfig,
  UpstreamEra,
  UpstreamOAuthConfig,
} from './config/schema.js';
export { createGateway, Gateway, type GatewayOptions, type GatewayStatus } from './gateway.js';
export type { LiveCallRouter, Resume } from './held/live-calls.js';
export type { LiveListeners, Owner } from './leg/host-facts.js';
export type { Step, UpstreamAnswer, UpstreamRequest, Via } from './leg/step.js';
export type { UpstreamStatus } from './upstream/upstream.js';
