export { type TelemetryOptions, telemetry } from './telemetry.js';
