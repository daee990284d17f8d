// Generated from schemas/components/Google.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Google.schema.json","title":"Google params","description":"Google search through SerpApi (RAGFlow GoogleParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"q":{"type":"string","description":"Search keywords. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"start":{"type":["integer","string"],"description":"Result offset for paging (>= 0, default 0)."},"num":{"type":["integer","string"],"description":"Number of results (> 0, default 6)."},"api_key":{"type":"string","description":"SerpApi API key. Empty: warning; it must be set before the tool can run."},"country":{"type":"string","description":"Google country code (gl), e.g. \"us\" (default \"cn\")."},"language":{"type":"string","description":"Google interface language (hl), e.g. \"en\" (default)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Google.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.q !== undefined){
let data0 = data.q;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/q",schemaPath:"#/properties/q/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.q.type,parentSchema:schema31.properties.q,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.start !== undefined){
let data1 = data.start;
if((!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))) && (typeof data1 !== "string")){
const err1 = {instancePath:instancePath+"/start",schemaPath:"#/properties/start/type",keyword:"type",params:{type: schema31.properties.start.type},message:"must be integer,string",schema:schema31.properties.start.type,parentSchema:schema31.properties.start,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.num !== undefined){
let data2 = data.num;
if((!((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2)))) && (typeof data2 !== "string")){
const err2 = {instancePath:instancePath+"/num",schemaPath:"#/properties/num/type",keyword:"type",params:{type: schema31.properties.num.type},message:"must be integer,string",schema:schema31.properties.num.type,parentSchema:schema31.properties.num,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.api_key !== undefined){
let data3 = data.api_key;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/api_key",schemaPath:"#/properties/api_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.api_key.type,parentSchema:schema31.properties.api_key,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.country !== undefined){
let data4 = data.country;
if(typeof data4 !== "string"){
const err4 = {instancePath:instancePath+"/country",schemaPath:"#/properties/country/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.country.type,parentSchema:schema31.properties.country,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.language !== undefined){
let data5 = data.language;
if(typeof data5 !== "string"){
const err5 = {instancePath:instancePath+"/language",schemaPath:"#/properties/language/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.language.type,parentSchema:schema31.properties.language,data:data5};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"q":true,"start":true,"num":true,"api_key":true,"country":true,"language":true},"dynamicProps":false,"dynamicItems":false};

