//! The response-time clocks of a case on the team database: started when it opens with the
//! team's targets, paused while it waits on the customer, the next due time kept for the inbox.
