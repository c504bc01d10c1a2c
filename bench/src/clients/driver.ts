/** Something that runs whole survey flows against a server, the way one client library does. */
export interface FlowDriver {
  /** Runs one flow of `questions` questions to completion; throws if the result is wrong. */
  flow(questions: number): Promise<void>;
  close(): Promise<void>;
}
