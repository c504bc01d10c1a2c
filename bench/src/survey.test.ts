import { describe, expect, it } from 'vitest';
import { answerOf, keyOf, MAX_QUESTIONS, messageOf, questionCount, resultText } from './survey.js';

describe('the survey workload', () => {
  it('accepts whole question counts from 1 to the round cap, and nothing else', () => {
    expect(questionCount({ questions: 1 })).toBe(1);
    expect(questionCount({ questions: MAX_QUESTIONS })).toBe(MAX_QUESTIONS);
    for (const bad of [0, MAX_QUESTIONS + 1, 1.5, '3', null, undefined]) {
      expect(questionCount({ questions: bad })).toBeUndefined();
    }
    expect(questionCount(null)).toBeUndefined();
    expect(questionCount('questions')).toBeUndefined();
  });

  it('names questions and answers so every round of a flow is distinct', () => {
    const keys = Array.from({ length: MAX_QUESTIONS }, (_, i) => keyOf(i));
    expect(new Set(keys).size).toBe(MAX_QUESTIONS);
    expect(messageOf(0, 5)).toBe('Question 1 of 5?');
    expect(resultText([answerOf(0), answerOf(1)])).toBe('Answered 2: answer 1, answer 2');
  });
});
