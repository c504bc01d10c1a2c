// Form questions answered in Chromium, from a Parley server process over Streamable HTTP, on both eras.
import { describeFormFlows } from './helpers/form-flows.js';

describeFormFlows('http');
