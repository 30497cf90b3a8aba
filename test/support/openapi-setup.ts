// Every JSON answer an HttpClient receives in a test must be as the OpenAPI document says.
import { HttpClient } from '@careerbot/testkit';
import { sharedOpenApiCheck } from './response-check.ts';

HttpClient.answerCheck = (answer) => sharedOpenApiCheck().check(answer);
