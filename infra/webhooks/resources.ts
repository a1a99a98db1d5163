import type { Database } from '../database';
import { callList } from '../lists/calls';
import { interviewList } from '../lists/interviews';
import type { CallDoc } from '../records/calls';
import type { InterviewDoc } from '../records/interviews';
import { callView } from '../views/calls';
import { interviewView } from '../views/interviews';
import type { Announcement } from './events';

/**
 * The announcement of a change of a call or an interview: the resource as its GET shows it now, and the
 * record of the event kept on it (not a change in the lists' feed: the change it announces already is).
 */

export function callAnnouncement(db: Database, call: CallDoc, occurrence: string | number): Announcement {
  return {
    resourceId: call._id,
    occurrence,
    announced: call,
    view: (sequence) => callView({ ...call, sequence }),
    mark: (key, sequence) => callList(db).touch(call._id, { $push: { events: key }, $max: { sequence } }),
  };
}

export function interviewAnnouncement(
  db: Database,
  interview: InterviewDoc,
  publicBaseUrl: string,
  occurrence: string | number,
): Announcement {
  return {
    resourceId: interview._id,
    occurrence,
    announced: interview,
    view: (sequence) => interviewView({ ...interview, sequence }, publicBaseUrl),
    mark: (key, sequence) => interviewList(db).touch(interview._id, { $push: { events: key }, $max: { sequence } }),
  };
}
