// Form questions answered in Chromium, from a Parley server spawned over stdio, on both eras.
import { describeFormFlows } from './helpers/form-flows.js';

describeFormFlows('stdio');
