import type { CallDoc } from '../documents/calls';
import type { InterviewDoc } from '../documents/interviews';
import { callView } from '../views/calls';
import { interviewView } from '../views/interviews';
import type { Announcement } from './events';

/**
 * The announcement of a change of a call or an interview, from its document as the write that recorded the
 * event's key left it: the resource as its GET shows it, with the event's sequence.
 */

export function callAnnouncement(call: CallDoc, publicBaseUrl: string, key: string): Announcement {
  return { resourceId: call._id, key, announced: call, view: (sequence) => callView(call, publicBaseUrl, sequence) };
}

export function interviewAnnouncement(interview: InterviewDoc, publicBaseUrl: string, key: string): Announcement {
  return {
    resourceId: interview._id,
    key,
    announced: interview,
    // An `interview.reviewed` carries the new review and the count, not the earlier ones: GET has them.
    view: (sequence, type) => {
      const view = interviewView(interview, publicBaseUrl, sequence);
      return type === 'interview.reviewed' ? { ...view, review_history: [] } : view;
    },
  };
}
